#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Last-resort terminal restoration when the process dies without ``CursesScreen/end()``:
/// on a crash signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT; Swift's
/// `fatalError` and failed preconditions arrive as SIGILL/SIGTRAP) and at `exit()`.
///
/// `endwin()` is not async-signal-safe, so the handler only does what is: it writes the
/// terminal's own reset strings (leave the alternate screen, show the cursor, reset
/// attributes, disable mouse reporting), puts back the tty modes saved before curses started
/// (`tcsetattr`), then re-installs the previous handler (e.g. Swift's backtracer) and
/// re-raises the signal, so the crash report lands on a usable terminal.
///
/// SIGINT/SIGTERM/SIGTSTP are left to ncurses, which installs its own handlers for them.
/// All state lives in memory allocated before the handlers are installed; the handler
/// allocates nothing.
enum TerminalRestorer {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    struct State {
        var descriptor: Int32
        var modes: termios
        var hasModes: Bool
        var reset: UnsafeMutablePointer<UInt8>
        var resetCount: Int
        var previous: UnsafeMutablePointer<sigaction>
    }

    /// Read by the signal handler; written only on the curses thread while no handler is installed.
    nonisolated(unsafe) static var state: UnsafeMutablePointer<State>?
    nonisolated(unsafe) static var atExitRegistered = false

    /// Saves what is needed to restore `descriptor` and installs the handlers.
    static func install(descriptor: Int32, modes: termios?, resetSequence: [UInt8]) {
        guard state == nil else { return }
        let reset = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, resetSequence.count))
        reset.initialize(from: resetSequence, count: resetSequence.count)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        previous.initialize(repeating: sigaction(), count: 65)
        let pointer = UnsafeMutablePointer<State>.allocate(capacity: 1)
        pointer.initialize(to: State(
            descriptor: descriptor,
            modes: modes ?? termios(),
            hasModes: modes != nil,
            reset: reset,
            resetCount: resetSequence.count,
            previous: previous
        ))
        state = pointer
        for signal in crashSignals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = crashHandler
            #else
            action.__sigaction_handler.sa_handler = crashHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, previous + Int(signal))
        }
        if !atExitRegistered {
            atExitRegistered = true
            atexit(exitHandler)
        }
    }

    /// Puts the previous handlers back and frees the saved state (after a normal `endwin`).
    static func uninstall() {
        guard let pointer = state else { return }
        for signal in crashSignals {
            sigaction(signal, pointer.pointee.previous + Int(signal), nil)
        }
        state = nil
        pointer.pointee.reset.deallocate()
        pointer.pointee.previous.deallocate()
        pointer.deallocate()
    }

    /// Async-signal-safe restore: `write` and `tcsetattr` only.
    static func restore(_ pointer: UnsafeMutablePointer<State>) {
        let fd = pointer.pointee.descriptor
        var written = 0
        while written < pointer.pointee.resetCount {
            let n = write(fd, pointer.pointee.reset + written, pointer.pointee.resetCount - written)
            if n <= 0 { break }
            written += n
        }
        if pointer.pointee.hasModes {
            _ = withUnsafePointer(to: &pointer.pointee.modes) { tcsetattr(fd, TCSANOW, $0) }
        }
    }
}

private let crashHandler: @convention(c) (Int32) -> Void = { signal in
    if let pointer = TerminalRestorer.state {
        TerminalRestorer.restore(pointer)
        sigaction(signal, pointer.pointee.previous + Int(signal), nil)
    } else {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }
    // Delivered again when this handler returns (the signal is blocked while it runs):
    // to the previous handler, or with the default action.
    raise(signal)
}

private let exitHandler: @convention(c) () -> Void = {
    if let pointer = TerminalRestorer.state {
        TerminalRestorer.restore(pointer)
    }
}
