import BridgeCore

/// Why a host profile or journey scenario file was refused: which file, where in it, and what
/// was expected there.
///
/// The description reads like a compiler diagnostic, so a person can go straight to the mistake:
///
/// ```text
/// scenarios/flow.json: steps[3].awaitResponse.timeoutMs: expected a whole number of milliseconds from 1 to 86400000, found -5
/// scenarios/flow.json: line 4, column 12: invalid JSON: expected ':' after an object key, found '"'
/// profiles/host.json: slots.passport: unknown slot "passport"; expected "document" or "selfie"
/// ```
public struct SimulationInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (or a name such as `<built-in demo profile>`).
    public var file: String
    /// Where the mistake is: a JSON path such as `steps[3].awaitResponse.timeoutMs`,
    /// `(top level)`, or `line 4, column 12` for a syntax error. Empty when the file as a whole
    /// could not be read.
    public var place: String
    /// What is wrong, including what was expected and, when it helps, what was found.
    public var message: String

    /// Creates an error.
    public init(file: String, place: String, message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    /// `<file>: <place>: <message>`, or `<file>: <message>` when there is no place.
    public var description: String {
        place.isEmpty ? "\(file): \(message)" : "\(file): \(place): \(message)"
    }
}
