import Foundation

// Bounded waits for conditions a test cannot be told about (a browser's page, another process,
// a file): each tries again every `interval` until the condition holds or `timeout` passes, so a
// condition that holds ends the wait at once and a slow machine only makes it longer, never
// wrong. Main-actor state has `eventually`; these are for everything else. They are the one
// place the end-to-end tests pause between tries.

/// Tries `attempt` until it gives a value (returned) or `timeout` passes (`nil`), on the
/// caller's actor.
///
/// ```swift
/// let state = try await waitUntil(timeout: .seconds(20)) { try page.state().isReady ? page : nil }
/// ```
public func waitUntil<Value>(
    timeout: Duration, every interval: Duration = .milliseconds(10), isolation: isolated (any Actor)? = #isolation,
    _ attempt: () async throws -> Value?
) async rethrows -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await attempt() { return value }
        guard ContinuousClock.now < deadline else { return nil }
        try? await Task.sleep(for: interval)
    }
}

/// Whether `condition` held within `timeout`, checked every `interval`.
public func waitUntil(
    timeout: Duration, every interval: Duration = .milliseconds(10), isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    await waitUntil(timeout: timeout, every: interval) { condition() ? true : nil } ?? false
}

/// ``waitUntil(timeout:every:isolation:_:)`` for code that must block its thread (a dedicated
/// thread waiting on a browser or a child process, never the cooperative pool).
public func waitUntilBlocking<Value>(
    timeout: Duration, every interval: Duration = .milliseconds(10), _ attempt: () throws -> Value?
) rethrows -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try attempt() { return value }
        guard ContinuousClock.now < deadline else { return nil }
        Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
    }
}
