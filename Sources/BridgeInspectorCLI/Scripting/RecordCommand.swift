import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector record FILE`: writes the session (snapshot plus every event) as JSON Lines.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the host's session (snapshot and every event) to a file.",
        discussion: """
            Attaches to the host and writes a recording: a header line, then every frame the \
            agent sends, byte for byte as it arrived (its hello, the snapshot, every event, and \
            any gap marker with the snapshot after it), one JSON object per line. Each line is \
            written as soon as it arrives, so a recording stopped in any way loses at most its \
            last line. `bridge-inspector open FILE` views it offline; `open --check` checks it. \
            The format is described in docs/cli.md.

            On a terminal, a line on standard error shows what has been recorded so far \
            (messages and bytes), updated in place; nothing of it is written when standard error \
            is not a terminal, nor with --quiet.

            Recording stops on Ctrl-C or SIGTERM, after --count events or --duration seconds, or \
            when the host stops. With --host NAME (not NAME.PID) it follows the host across \
            runs instead: it waits for a host of that name to start, and when the host is run \
            again (a new process) it writes a hostRestarted marker line and goes on recording \
            the new process. Exit status: 0 done (also when the host stopped and neither \
            --count nor --duration was given); 3 the host went away before --count or \
            --duration was reached (the file holds everything up to then).

            Examples:
              bridge-inspector record session.jsonl
              bridge-inspector record session.jsonl --duration 60
              bridge-inspector record - --count 100 | gzip > session.jsonl.gz
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The file to write (replaced if it exists); - for standard output.", valueName: "file"), completion: Completions.recording)
    var file: String

    @Option(help: ArgumentHelp("Stop after this many events (after the snapshot).", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(name: .shortAndLong, help: "Print no summary at the end.")
    var quiet = false

    /// `text` made safe and cut to 32 characters, for the progress line (which must fit on one
    /// line of the terminal to be rewritten in place).
    static func cut(_ text: String) -> String {
        let safe = ScriptOutput.safe(text)
        return safe.count > 32 ? String(safe.prefix(31)) + "…" : safe
    }

    func run() throws {
        try Script.run {
            if let count, count < 1 { throw ScriptError.usage("--count must be at least 1 (got \(count))") }
            try Seconds.check(duration, option: "--duration")
            guard !file.isEmpty else { throw ScriptError.usage("the file name must not be empty", hint: "use - for standard output") }
            let stop = StopRequest()
            let watcher = SignalWatcher { _ in stop.set() }
            defer { watcher.cancel() }
            let deadline = duration.map { Date().addingTimeInterval($0) }
            let followed = selection.followedHost
            func open(_ path: String) throws -> RawFrameStream {
                try RawFrameStream(socketPath: path, clientName: "bridge-inspector record", timeout: HostSelection.connectTimeout)
            }
            // Attach first: no file is created when there is no host (a followed one is waited for).
            var stream: RawFrameStream
            if let followed {
                guard let first = try followed.attach(deadline: deadline, stopped: { stop.isSet }, open) else {
                    if stop.isSet { return }
                    throw ScriptError.timeout("no host named \(ScriptOutput.safe(followed.name)) started within \(duration ?? 0) seconds; nothing was recorded")
                }
                stream = first
            } else {
                // A fixed socket, or tcp://HOST:PORT (the recording names it, never the token).
                stream = try RawFrameStream(endpoint: try selection.endpoint(), clientName: "bridge-inspector record", timeout: HostSelection.connectTimeout)
            }
            defer { stream.close() }
            let writer: RecordingWriter
            do {
                writer = try RecordingWriter(path: file, header: Recording.Header(socket: stream.socketPath, startedAt: Date().timeIntervalSince1970 * 1000))
            } catch {
                throw ScriptError.failure("\(error)", hint: "choose a file in a directory you can write to")
            }
            defer { writer.close() }

            var frames = 0
            var events = 0
            var messages = 0
            var bytes = 0
            var restarts = 0
            var hostGone = false
            var progress = ProgressLine(quiet: quiet)
            defer { progress.clear() }
            let destination = file == "-" ? "standard output" : file
            func showProgress(force: Bool = false) {
                let host = stream.hello.host
                progress.show(
                    "recording \(Self.cut(host.name)) (pid \(host.pid)) to \(Self.cut(destination)): \(messages) message\(messages == 1 ? "" : "s"), \(TimeFormat.bytes(bytes)) (Ctrl-C stops)",
                    now: ProcessInfo.processInfo.systemUptime, force: force)
            }
            showProgress(force: true)
            while !stop.isSet {
                var wait = 0.25
                if let deadline {
                    let remaining = deadline.timeIntervalSinceNow
                    if remaining <= 0 { break }
                    wait = min(wait, remaining)
                }
                let next: (line: [UInt8], frame: AgentFrame)?
                do {
                    next = try stream.next(timeout: wait)
                } catch InspectorClientError.closed {
                    guard let followed else {
                        hostGone = true
                        break
                    }
                    // Follow the name: wait for the next run and go on recording it, after a marker.
                    let ended = stream.hello.host.pid
                    stream.close()
                    if quiet {
                        progress.clear()
                    } else {
                        progress.note("the host (pid \(ended)) went away; waiting for a host named \(ScriptOutput.safe(followed.name)) to run again… (Ctrl-C stops)")
                    }
                    guard let again = try followed.attach(deadline: deadline, stopped: { stop.isSet }, announced: true, open) else { break }
                    stream = again
                    // Said at once, so the last line on the screen is never a stale "waiting".
                    let name = ScriptOutput.safe(again.hello.host.name)
                    // The same process again (its agent dropped us, say): its frames follow, no marker.
                    guard again.hello.host.pid != ended else {
                        if !quiet { progress.note("attached again to \(name) (pid \(ended)); recording goes on") }
                        showProgress(force: true)
                        continue
                    }
                    if !quiet { progress.note("\(name) is running again (pid \(again.hello.host.pid)); recording it after a hostRestarted line") }
                    let restart = Recording.HostRestart(
                        time: Date().timeIntervalSince1970 * 1000, host: again.hello.host.name, endedPid: ended, attachedPid: again.hello.host.pid,
                        socket: again.socketPath)
                    try writer.write(line: restart.line)
                    bytes += restart.line.count + 1
                    restarts += 1
                    showProgress(force: true)
                    continue
                }
                guard let next else {
                    showProgress()
                    continue
                }
                try writer.write(line: next.line)
                frames += 1
                bytes += next.line.count + 1
                if case .event(_, let event) = next.frame {
                    events += 1
                    if case .traffic = event { messages += 1 }
                }
                showProgress()
                if let count, events >= count { break }
            }
            progress.clear()
            let socketPath = stream.socketPath
            let runs = restarts > 0 ? " across \(restarts + 1) runs" : ""
            let summary = "recorded \(frames) frames (\(events) events)\(runs) from \(ScriptOutput.safe(stream.hello.host.name)) to \(destination)"
            if hostGone {
                let limited = count != nil || duration != nil
                if limited {
                    throw ScriptError.hostWentAway(socketPath, while: "before the recording was complete; \(summary)")
                }
                if !quiet { StandardStreams.printError("the host stopped; \(summary)") }
                return
            }
            if !quiet { StandardStreams.printError(summary) }
        }
    }
}
