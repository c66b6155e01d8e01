import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started as a child process with `posix_spawn`: the one way the package starts one.
///
/// Not Foundation's `Process`: on Linux, swift-corelibs-foundation up to Swift 6.3.1 calls
/// `findMaximumOpenFromProcSelfFD()` in every `Process.run()`, which copies each `dirent`'s
/// `d_name` whole (256 bytes) and can read past the end of glibc's `readdir` buffer into an
/// unmapped page: an intermittent SIGSEGV in any process that starts children, the more
/// descriptors it has open the likelier (swift-corelibs-foundation PR #5472 fixes it, in a
/// later toolchain). Here every descriptor above 2 is closed in the child itself, by glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), so that none another thread
/// opens meanwhile leaks into the child; with an older C library they are listed with
/// `FileManager`, which reads directory entries safely.
///
/// What `Process` gave its callers is kept: the program's path is used as it is (no `PATH`
/// search), every descriptor above 2 is closed in the child, each standard stream is inherited,
/// `/dev/null`, a descriptor of the caller's or a pipe (the parent's end is a `FileHandle`,
/// closed when the last reference to it goes, as a `Pipe`'s are), and the child is reaped only
/// through this object, so its pid is never signalled after it could have been reused.
/// Two things `Process` always did are choices here: a process group of its own
/// (`newProcessGroup`), and signals as inherited or back to their defaults (``SignalState``).
///
/// ```swift
/// let child = try ChildProcess(
///     executable: "/bin/sh", arguments: ["-c", "echo hi"], standardOutput: .pipe)
/// let output = child.standardOutput?.readDataToEndOfFile()
/// if child.waitUntilExit() == .exited(0) { … }
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// The parent's own stream.
        case inherit
        /// `/dev/null`.
        case nullDevice
        /// A new pipe; the parent's end is ``ChildProcess/standardInput``,
        /// ``ChildProcess/standardOutput`` or ``ChildProcess/standardError``.
        case pipe
        /// A descriptor the caller has open (a file, say); duplicated for the child, and still
        /// the caller's to close. The streams are set up in order (input, output, error), so
        /// `.descriptor(1)` for standard error sends it where standard output goes.
        case descriptor(Int32)
    }

    /// The signal dispositions and mask the child starts with.
    public enum SignalState: Sendable {
        /// As the starting thread has them (what `Process` does): an ignored signal stays
        /// ignored across `exec`, and the child inherits the starting thread's mask.
        case inherited
        /// Every signal at its default disposition and none blocked: for a program that must
        /// be stoppable and see SIGCHLD whatever the parent ignores or blocks (a test runner's
        /// threads block almost every signal).
        case defaults
    }

    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// It was killed by this signal.
        case signalled(Int32)

        /// `exited with status N` or `killed by signal N`, for messages.
        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }

        /// The exit status, or the signal's number: what `Process.terminationStatus` said.
        public var statusOrSignal: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): signal
            }
        }

        /// Decodes a `waitpid` status (nil for a stopped or continued child).
        init?(waitStatus status: Int32) {
            // A normal exit has nothing in the low seven bits and its status in bits 8 to 15;
            // 0x7f there means stopped.
            let low = status & 0x7f
            if low == 0 {
                self = .exited((status >> 8) & 0xff)
            } else if low != 0x7f {
                self = .signalled(low)
            } else {
                return nil
            }
        }
    }

    /// Why a program could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// The program's path.
        public var executable: String
        /// What went wrong (the system's message).
        public var reason: String

        /// `cannot start PATH: REASON`.
        public var description: String { "cannot start \(executable): \(reason)" }
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The parent's end of the child's standard input, when it is ``Stream/pipe``.
    public let standardInput: FileHandle?
    /// The parent's end of the child's standard output, when it is ``Stream/pipe``.
    public let standardOutput: FileHandle?
    /// The parent's end of the child's standard error, when it is ``Stream/pipe``.
    public let standardError: FileHandle?

    /// How the child ended, once it has been reaped.
    private let ended = Locked<Termination?>(nil)

    /// Starts `executable` (a path, used as it is) with `arguments` (not including the program's
    /// own name, which is `executable`) and `environment` (this process's when nil).
    public init(
        executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        standardInput: Stream = .inherit, standardOutput: Stream = .inherit, standardError: Stream = .inherit,
        newProcessGroup: Bool = false, signals: SignalState = .inherited
    ) throws {
        var pipes = PipeEnds()
        defer { pipes.closeChildEnds() }
        do {
            try pipes.make(for: standardInput, childReads: true, slot: 0)
            try pipes.make(for: standardOutput, childReads: false, slot: 1)
            try pipes.make(for: standardError, childReads: false, slot: 2)
        } catch {
            pipes.closeParentEnds()
            throw StartError(executable: executable, reason: "cannot make a pipe: \(String(cString: strerror((error as? PipeFailure)?.code ?? EIO)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (slot, stream) in [standardInput, standardOutput, standardError].enumerated() {
            let target = Int32(slot)
            switch stream {
            case .inherit: break
            case .nullDevice: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", slot == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe: posix_spawn_file_actions_adddup2(&actions, pipes.child[slot], target)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }

        #if os(Linux)
        var attributes = posix_spawnattr_t()
        #else
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        if case .defaults = signals {
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        }
        #if os(Linux)
        // Every descriptor above 2, after the streams were duplicated onto 0 to 2. With glibc
        // 2.34 or later, in the child itself, so that one another thread opens meanwhile
        // without close-on-exec (Foundation's file writing does) is closed too. Otherwise the
        // ones open now (one closed meanwhile is skipped: glibc ignores EBADF for close
        // actions), listed by FileManager, never by a `dirent` copied whole (the Foundation
        // bug this type avoids).
        if let closeFrom = SpawnCloseFrom.function, closeFrom(&actions, 3) == 0 {
            // Closed in the child.
        } else {
            let openNow = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
            for descriptor in openNow where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        }
        #else
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            pipes.closeParentEnds()
            throw StartError(executable: executable, reason: String(cString: strerror(spawned)))
        }
        processIdentifier = child
        self.standardInput = pipes.handle(0)
        self.standardOutput = pipes.handle(1)
        self.standardError = pipes.handle(2)
    }

    /// How the child ended, without waiting: nil while it runs.
    public var termination: Termination? {
        ended.withLock { reapIfEnded(&$0) }
    }

    /// Whether the child is still running (not yet ended and reaped).
    public var isRunning: Bool { termination == nil }

    /// Waits for the child to end and returns how it did.
    public func waitUntilExit() -> Termination {
        while true {
            if let ended = termination { return ended }
            // Wait for it to end without reaping it (WNOWAIT), so that reaping stays under the
            // lock, in one place, and every waiter sees the same termination. ECHILD: another
            // waiter reaped it meanwhile (read at the top).
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno != EINTR, errno != ECHILD {
                usleep(10_000)
            }
        }
    }

    /// Waits for the child to end, calling `stopped` each time it is stopped meanwhile (Ctrl-Z, or
    /// a terminal signal: SIGTSTP, SIGTTIN, SIGTTOU, SIGSTOP), as a shell waits for a foreground
    /// job. `stopped` decides what happens next, usually to give the child the terminal and
    /// continue it (``signalGroup(_:)`` with `SIGCONT`); the child stays stopped otherwise.
    ///
    /// ```swift
    /// let ended = child.waitUntilExit(whenStopped: { child.signalGroup(SIGCONT) })
    /// ```
    public func waitUntilExit(whenStopped stopped: () -> Void) -> Termination {
        while true {
            if let ended = termination { return ended }
            // As `waitUntilExit()`, and a stop reported too. The stop is then taken (WSTOPPED
            // without WEXITED never reaps), so the next wait does not report it again.
            var info = siginfo_t()
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WSTOPPED | WNOWAIT) == -1 {
                if errno != EINTR, errno != ECHILD { usleep(10_000) }
                continue
            }
            if Int(info.si_code) == Int(CLD_STOPPED) {
                var taken = siginfo_t()
                _ = waitid(P_PID, id_t(processIdentifier), &taken, WSTOPPED | WNOHANG)
                stopped()
            }
        }
    }

    /// Waits up to `timeout` for the child to end: how it did, or nil when it is still running.
    public func waitForExit(timeout: Duration) -> Termination? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var pause: UInt32 = 500
        while true {
            if let ended = termination { return ended }
            if clock.now >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
    }

    /// Sends `signal` to the child, unless it has already ended (its pid may then be another's).
    public func signal(_ signal: Int32) {
        ended.withLock { ended in
            if reapIfEnded(&ended) == nil { kill(processIdentifier, signal) }
        }
    }

    /// Sends `signal` to the child's process group (started with `newProcessGroup`), unless the
    /// child has already ended.
    public func signalGroup(_ signal: Int32) {
        ended.withLock { ended in
            if reapIfEnded(&ended) == nil { kill(-processIdentifier, signal) }
        }
    }

    /// Reaps the child if it has ended; called with `ended` locked.
    private func reapIfEnded(_ ended: inout Termination?) -> Termination? {
        if let ended { return ended }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(processIdentifier, &status, WNOHANG)
            if reaped == -1, errno == EINTR { continue }
            if reaped == processIdentifier, let termination = Termination(waitStatus: status) {
                ended = termination
            } else if reaped == -1, errno == ECHILD {
                // Reaped outside this object: it has ended, how is lost.
                ended = .exited(-1)
            }
            return ended
        }
    }
}

#if os(Linux)
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later: every descriptor from a
/// number up closed in the child), looked up when first needed: Swift's Glibc module does not
/// declare it, and an older glibc (or musl) has none, which leaves ``ChildProcess`` listing the
/// descriptors itself.
private enum SpawnCloseFrom {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let function: Function? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
#endif

/// Why a pipe could not be made: the `errno`.
private struct PipeFailure: Error {
    var code: Int32
}

/// The pipes made for a child's standard streams: index 0 to 2 by stream, -1 where none.
private struct PipeEnds {
    var parent: [Int32] = [-1, -1, -1]
    var child: [Int32] = [-1, -1, -1]

    /// Makes the pipe for `slot` when `stream` asks for one; both ends close on exec, so
    /// neither leaks into programs other threads start meanwhile (the child's end is
    /// duplicated onto its stream, which clears that).
    mutating func make(for stream: ChildProcess.Stream, childReads: Bool, slot: Int) throws {
        guard case .pipe = stream else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PipeFailure(code: errno) }
        for index in ends.indices {
            _ = fcntl(ends[index], F_SETFD, FD_CLOEXEC)
            // A parent started with a standard stream closed gets that number back here: moved
            // above 2, or the child's streams, set up on 0 to 2, would overwrite it.
            if ends[index] <= 2 {
                let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
                guard moved >= 0 else {
                    let code = errno
                    ends.forEach { close($0) }
                    throw PipeFailure(code: code)
                }
                close(ends[index])
                ends[index] = moved
            }
        }
        child[slot] = childReads ? ends[0] : ends[1]
        parent[slot] = childReads ? ends[1] : ends[0]
    }

    /// The parent's end of `slot` as a handle that closes it when it goes.
    func handle(_ slot: Int) -> FileHandle? {
        parent[slot] >= 0 ? FileHandle(fileDescriptor: parent[slot], closeOnDealloc: true) : nil
    }

    mutating func closeChildEnds() {
        for index in child.indices where child[index] >= 0 {
            close(child[index])
            child[index] = -1
        }
    }

    mutating func closeParentEnds() {
        for index in parent.indices where parent[index] >= 0 {
            close(parent[index])
            parent[index] = -1
        }
    }
}
