import SocketSupport

/// Where the agent's core writes one connection's bytes: a socket for the poll driver, an
/// in-memory connection for the embedded test driver.
///
/// A write never waits: it takes what fits now (a socket's free buffer) and says how much, or
/// `.wouldBlock` when nothing fits; it throws when the peer is gone. That is all the core needs
/// to keep its back-pressure rules (a burst is handed to the connection before any event is
/// dropped; a client that takes nothing for too long is stalled).
protocol AgentOutput: AnyObject {
    /// Writes a prefix of `bytes` without waiting.
    func write(_ bytes: UnsafeRawBufferPointer) throws -> UnixConnection.WriteResult

    /// Writes a prefix of the concatenation of `buffers` without waiting (a gathering write: a
    /// batch of frames in one system call, none copied).
    func write(gathering buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) throws -> UnixConnection.WriteResult
}

extension AgentOutput {
    /// A gathering write made of a plain one: the first non-empty buffer's prefix (a short write,
    /// which every caller handles).
    func write(gathering buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) throws -> UnixConnection.WriteResult {
        guard let first = buffers.first(where: { $0.count > 0 }) else { return .written(0) }
        return try write(first)
    }
}

extension UnixConnection: AgentOutput {}
