import Glibc

/// A private Xvfb server for `--headless`, started race-free and stopped at exit.
///
/// Why `-displayfd`: picking a free display number ourselves races with other Xvfbs (parallel
/// tests, other runners); with `-displayfd FD` Xvfb picks a free number, takes its lock, and writes
/// the number to FD once it accepts connections. How: `posix_spawn` with a pipe's write end
/// inherited as FD and descriptors 0-2 on /dev/null (so Xvfb never holds the host's pipes open),
/// then read the number from the pipe. `-terminate` makes Xvfb exit by itself when its last client
/// disconnects, so it also goes away when the runner is killed with SIGKILL; `stop()` covers the
/// orderly exit (SIGTERM, then SIGKILL after 5 s) and reaps it.
final class HeadlessDisplay {
    let processID: pid_t
    /// ":N"
    let display: String
    private var stopped = false

    private init(processID: pid_t, display: String) {
        self.processID = processID
        self.display = display
    }

    /// Starts Xvfb with a screen of at least 1280x800 (larger when the window is larger).
    static func start(width: Int, height: Int) -> Result<HeadlessDisplay, HeadlessDisplayError> {
        guard let xvfb = findInPath("Xvfb") else {
            return .failure(.init("--headless needs Xvfb, which is not in PATH (Debian/Ubuntu: apt-get install xvfb xauth)"))
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { return .failure(.init("could not create a pipe for Xvfb: \(errnoText())")) }
        let readEnd = pipeFDs[0], writeEnd = pipeFDs[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        let screen = "\(max(width, 1280))x\(max(height, 800))x24"
        let arguments = [xvfb, "-displayfd", String(writeEnd), "-screen", "0", screen, "-nolisten", "tcp", "-terminate"]

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The runner ignores SIGPIPE; Xvfb gets the default back. And no signal is blocked in
        // Xvfb even if the runner's parent spawned us with some blocked (a test runner did, and
        // Xvfb then ignored SIGTERM until it was killed, leaving its socket behind).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var processID: pid_t = 0
        let spawnResult = posix_spawn(&processID, xvfb, &actions, &attributes, &cArguments, environ)
        close(writeEnd)
        guard spawnResult == 0 else {
            return .failure(.init("could not start \(xvfb): \(String(cString: strerror(spawnResult)))"))
        }

        // Read "N\n" (bounded: a loaded machine may take a while, a broken Xvfb exits at once).
        var text = ""
        let deadline = millisecondsSinceStart() + 60_000
        var buffer = [UInt8](repeating: 0, count: 64)
        while !text.contains("\n") {
            let remaining = deadline - millisecondsSinceStart()
            if remaining <= 0 { break }
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining, 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let number = text.trimmed()
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else {
            let display = HeadlessDisplay(processID: processID, display: "")
            let status = display.stop()
            return .failure(.init("Xvfb did not report a display (\(status)); run `Xvfb :99` by hand to see why"))
        }
        return .success(HeadlessDisplay(processID: processID, display: ":" + number))
    }

    /// Stops Xvfb (once) and describes how it ended.
    @discardableResult
    func stop() -> String {
        guard !stopped else { return "already stopped" }
        stopped = true
        var status: Int32 = 0
        if waitpid(processID, &status, WNOHANG) == processID { return Self.describe(status) }
        kill(processID, SIGTERM)
        for _ in 0..<500 {
            let result = waitpid(processID, &status, WNOHANG)
            if result == processID { return Self.describe(status) }
            if result < 0 && errno != EINTR { return "not our child any more" }
            usleep(10_000)
        }
        kill(processID, SIGKILL)
        while waitpid(processID, &status, 0) < 0 && errno == EINTR {}
        return "killed after 5 s"
    }

    private static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exit status \((status >> 8) & 0xff)" }
        return "signal \(signal)"
    }

    private static func findInPath(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

struct HeadlessDisplayError: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

func errnoText() -> String { String(cString: strerror(errno)) }

extension String {
    /// Without leading and trailing spaces and newlines.
    func trimmed() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\n" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\n" { slice.removeLast() }
        return String(slice)
    }
}
