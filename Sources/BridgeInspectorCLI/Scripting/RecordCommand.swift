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

            Recording stops on Ctrl-C or SIGTERM, after --count events or --duration seconds, or \
            when the host stops. Exit status: 0 done (also when the host stopped and neither \
            --count nor --duration was given); 3 the host went away before --count or \
            --duration was reached (the file holds everything up to then).

            Examples:
              bridge-inspector record session.jsonl
              bridge-inspector record session.jsonl --duration 60
              bridge-inspector record - --count 100 | gzip > session.jsonl.gz
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The file to write (replaced if it exists); - for standard output.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Stop after this many events (after the snapshot).", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(name: .shortAndLong, help: "Print no summary at the end.")
    var quiet = false

    func run() throws {
        try Script.run {
            if let count, count < 1 { throw ScriptFailure.usage("--count must be at least 1 (got \(count))") }
            try Seconds.check(duration, option: "--duration")
            guard !file.isEmpty else { throw ScriptFailure.usage("the file name must not be empty", hint: "use - for standard output") }
            let endpoint = try selection.endpoint()
            // The recording names the socket, or tcp://HOST:PORT: never the token.
            let socketPath = endpoint.description
            // Attach first: no file is created when there is no host.
            let stream = try RawFrameStream(endpoint: endpoint, clientName: "bridge-inspector record", timeout: HostSelection.connectTimeout)
            defer { stream.close() }
            let writer: RecordingWriter
            do {
                writer = try RecordingWriter(path: file, header: Recording.Header(socket: socketPath, startedAt: Date().timeIntervalSince1970 * 1000))
            } catch {
                throw ScriptFailure.failure("\(error)", hint: "choose a file in a directory you can write to")
            }
            defer { writer.close() }

            let stop = StopRequest()
            let watcher = SignalWatcher { _ in stop.set() }
            defer { watcher.cancel() }
            let deadline = duration.map { Date().addingTimeInterval($0) }
            var frames = 0
            var events = 0
            var hostGone = false
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
                    hostGone = true
                    break
                }
                guard let next else { continue }
                try writer.write(line: next.line)
                frames += 1
                if case .event = next.frame { events += 1 }
                if let count, events >= count { break }
            }
            let summary = "recorded \(frames) frames (\(events) events) from \(ScriptOutput.safe(stream.hello.host.name)) to \(file == "-" ? "standard output" : file)"
            if hostGone {
                let limited = count != nil || duration != nil
                if limited {
                    throw ScriptFailure.hostWentAway(socketPath, while: "before the recording was complete; \(summary)")
                }
                if !quiet { StandardStreams.printError("the host stopped; \(summary)") }
                return
            }
            if !quiet { StandardStreams.printError(summary) }
        }
    }
}
