import TerminalUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for terminal input, other descriptors (sockets, a wake pipe) or a short timeout,
/// on the UI thread, and hands back what happened: the way to mix live traffic with keys.
///
/// ```swift
/// let screen = try CursesScreen()
/// defer { screen.end() }
/// let loop = EventLoop(screen: screen)
/// loop.watch(agentSocket)
/// while running {
///     screen.draw(render(state, size: screen.size))
///     let tick = loop.next(timeout: .milliseconds(100))
///     for event in tick.events { state.update(.input(event)) }     // keys, resizes, mouse
///     if tick.isReady(agentSocket) { state.update(.traffic(readAvailable(agentSocket))) }
///     state.update(.tick(clock.now))                               // ages, spinners
/// }
/// ```
///
/// Each ``next(timeout:)`` polls the terminal's input descriptor plus the watched ones, for
/// at most 250 ms, then always drains the screen's keys with ``CursesScreen/readKeys()``:
/// ncurses buffers input internally (so a readable descriptor is not the only sign of keys),
/// and `readKeys` compares the terminal size each tick, catching a resize whose SIGWINCH
/// arrived before `poll` started. Stdin is never switched to non-blocking mode (it is shared
/// with the shell).
///
/// Like ``CursesScreen``, an event loop belongs to the UI thread and is not `Sendable`.
public final class EventLoop {
    /// What woke the loop, and the input events that were waiting.
    public struct Tick: Hashable, Sendable {
        /// Keys, resizes and mouse actions, in arrival order (empty without a screen).
        public var events: [KeyEvent]
        /// Watched descriptors that are readable, or hung up / in error (a read will tell which).
        public var ready: Set<Int32>
        /// Whether the terminal input descriptor was readable.
        public var inputReady: Bool
        /// The terminal went away (hang-up or error on its input): the app should end.
        public var inputClosed: Bool

        /// Whether `descriptor` (one passed to ``EventLoop/watch(_:)``) needs attention.
        public func isReady(_ descriptor: Int32) -> Bool { ready.contains(descriptor) }

        /// True when nothing but the timeout woke the loop (time to run periodic work).
        public var timedOut: Bool { events.isEmpty && ready.isEmpty && !inputReady && !inputClosed }
    }

    /// The longest a single ``next(timeout:)`` sleeps, so periodic work and missed resizes are handled promptly.
    public static let maximumTimeout: Duration = .milliseconds(250)

    /// The terminal input descriptor being polled.
    public let inputDescriptor: Int32
    /// Extra descriptors being polled, in the order they were added.
    public private(set) var watched: [Int32] = []
    private let screen: CursesScreen?

    /// An event loop for a curses screen: polls its input and returns its key events.
    public init(screen: CursesScreen) {
        self.screen = screen
        inputDescriptor = screen.inputDescriptor
    }

    /// An event loop without curses (tools and tests): reports readiness only, ``Tick/events`` stays empty.
    public init(inputDescriptor: Int32 = 0) {
        screen = nil
        self.inputDescriptor = inputDescriptor
    }

    /// Adds a descriptor (socket, pipe) to wait on; adding one twice has no effect.
    public func watch(_ descriptor: Int32) {
        if !watched.contains(descriptor) { watched.append(descriptor) }
    }

    /// Stops waiting on a descriptor, e.g. before closing it.
    public func unwatch(_ descriptor: Int32) {
        watched.removeAll { $0 == descriptor }
    }

    /// Sleeps until input, a watched descriptor or the timeout (clamped to 0…250 ms), then reports.
    ///
    /// A signal (such as SIGWINCH) also ends the wait early; the resize is then in ``Tick/events``.
    public func next(timeout: Duration = .milliseconds(100)) -> Tick {
        var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)]
        descriptors += watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(timeout))

        var tick = Tick(events: [], ready: [], inputReady: false, inputClosed: false)
        if result > 0 {
            let input = descriptors[0].revents
            tick.inputReady = input & Int16(POLLIN) != 0
            tick.inputClosed = input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            for entry in descriptors.dropFirst() where entry.revents != 0 {
                tick.ready.insert(entry.fd)
            }
        }
        if let screen { tick.events = screen.readKeys() }
        return tick
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let clamped = min(max(duration, .zero), maximumTimeout)
        let (seconds, attoseconds) = clamped.components
        return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

/// Not `Sendable`: it drives the screen it was made for, on the UI thread.
@available(*, unavailable)
extension EventLoop: Sendable {}
