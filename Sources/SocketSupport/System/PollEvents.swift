#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `poll(2)` event bits, as an option set: ask for `.readable`/`.writable`;
/// `.error`, `.hangUp` and `.invalid` are only ever reported.
public struct PollEvents: OptionSet, Sendable, Hashable {
    /// The `pollfd.events`/`revents` bits.
    public let rawValue: Int16

    /// Wraps raw `poll` event bits.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// Data (or end of file, or a pending connection on a listener) can be read.
    public static let readable = PollEvents(rawValue: Int16(truncatingIfNeeded: POLLIN))
    /// Writing will not block.
    public static let writable = PollEvents(rawValue: Int16(truncatingIfNeeded: POLLOUT))
    /// An error is pending on the descriptor.
    public static let error = PollEvents(rawValue: Int16(truncatingIfNeeded: POLLERR))
    /// The peer hung up; reads will drain what is left and then report end of file.
    public static let hangUp = PollEvents(rawValue: Int16(truncatingIfNeeded: POLLHUP))
    /// The descriptor is not open.
    public static let invalid = PollEvents(rawValue: Int16(truncatingIfNeeded: POLLNVAL))
}
