import ThreadSupport

/// Runs blocking work (a session waiting for a frame, a process run to its end) on a thread of
/// its own and returns its result: never on the main actor, which the host needs, nor on the
/// cooperative pool, which a blocking wait would tie up.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await DedicatedThread.run(name: "test-blocking-work", body)
}
