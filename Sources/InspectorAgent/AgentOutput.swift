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
}

extension UnixConnection: AgentOutput {}
