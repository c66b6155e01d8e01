/// Why a connection was refused after the peer-credential check: the peer must run as
/// the same (effective) user as we do.
public enum PeerCredentialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer runs as another user.
    case foreignUser(peerUID: UInt32, expectedUID: UInt32)
    /// The peer's credentials could not be read.
    case credentialsUnavailable(SocketSystemError)

    /// A sentence for logs saying which peer was refused and why.
    public var description: String {
        switch self {
        case .foreignUser(let peerUID, let expectedUID):
            return "refused a connection from uid \(peerUID): only uid \(expectedUID) may use this socket"
        case .credentialsUnavailable(let error):
            return "refused a connection whose peer credentials could not be read: \(error)"
        }
    }
}
