#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small `poll(2)` wrapper for the agent's and the client's event loops.
///
/// Typical loop: watch the listener, every connection and a `WakePipe`'s
/// `readDescriptor` for `.readable` (plus `.writable` for connections with queued
/// output), then act on each entry's `returnedEvents`.
public enum Poll {
    /// Waits until an event occurs on one of `descriptors` or `timeoutMilliseconds`
    /// pass (-1 waits forever, 0 only checks), fills in each `returnedEvents`, and
    /// returns how many entries have events. A signal interrupting the wait (EINTR)
    /// returns 0 with no events, like a timeout: the caller's loop simply polls again.
    /// Throws `SocketSystemError` for other failures.
    @discardableResult
    public static func wait(_ descriptors: inout [PollDescriptor], timeoutMilliseconds: Int32) throws -> Int {
        var entries = descriptors.map { entry in
            pollfd(fd: entry.descriptor, events: entry.events.rawValue, revents: 0)
        }
        let count = entries.count
        let result = entries.withUnsafeMutableBufferPointer { buffer -> Int32 in
            // An empty list passes a null pointer: poll then just waits for the timeout.
            SystemCalls.pollDescriptors(buffer.baseAddress, count, timeoutMilliseconds)
        }
        for index in descriptors.indices {
            descriptors[index].returnedEvents = result > 0 ? PollEvents(rawValue: entries[index].revents) : []
        }
        if result == -1 {
            let error = SocketSystemError.current("poll")
            if error.code == EINTR { return 0 }
            throw error
        }
        return Int(result)
    }

    /// Waits for `events` on the single `descriptor`; returns the events that occurred
    /// (empty on timeout or EINTR).
    public static func wait(descriptor: Int32, for events: PollEvents, timeoutMilliseconds: Int32) throws -> PollEvents {
        var entries = [PollDescriptor(descriptor: descriptor, events: events)]
        try wait(&entries, timeoutMilliseconds: timeoutMilliseconds)
        return entries[0].returnedEvents
    }
}

/// One entry of a `Poll.wait` call: a descriptor, the events wanted, and (after the
/// call) the events that occurred.
public struct PollDescriptor: Sendable, Hashable {
    /// The descriptor to watch; a negative value is ignored by `poll`.
    public var descriptor: Int32
    /// The events to wait for.
    public var events: PollEvents
    /// The events reported by the last `Poll.wait`; empty before it.
    public var returnedEvents: PollEvents

    /// Watches `descriptor` for `events`.
    public init(descriptor: Int32, events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
        self.returnedEvents = []
    }
}

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
