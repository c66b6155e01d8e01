import BridgeCore
import Foundation

/// The first line a client sends over TCP: `{"kind":"auth","token":"..."}`.
///
/// Over a Unix socket the kernel vouches for the peer (same user); a TCP port forwarded from a
/// phone can be reached by any local process, so the agent sends nothing, not even its `hello`,
/// until this frame carries the token the app printed once. A missing, wrong or late token gets
/// an `auth_required` / `auth_failed` error (without any host data) and the connection is closed.
public struct ClientAuth: Codable, Sendable {
    /// Always `auth`.
    public var kind = "auth"
    /// The token, exactly as the app printed it.
    public var token: String

    /// The longest auth line the agent reads, in bytes (without the newline); longer first
    /// lines are refused at once without waiting for their end.
    public static let maxFrameBytes = 1024

    /// Creates an auth frame for `token`.
    public init(token: String) {
        self.token = token
    }

    /// The frame, ending in a newline.
    public func frame() throws -> Data {
        var data = try JSONEncoding.encode(self)
        data.append(0x0A)
        return data
    }
}
