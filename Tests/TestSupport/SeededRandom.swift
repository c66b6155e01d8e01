import InspectorProtocol

/// The tests' seeded random generator: the same SplitMix64 the fault rules use, so a failing
/// seed replays the same run on every machine. For test targets that do not import
/// InspectorProtocol themselves (BridgeCore's).
///
/// ```swift
/// var random = SeededRandom(seed: 7)
/// let pick = Int.random(in: 0..<10, using: &random)
/// ```
public typealias SeededRandom = SplitMix64
