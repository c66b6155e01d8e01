import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// `bridge-inspector export --har [FILE]`: a session as HAR 1.2 JSON, for tools that read HTTP
/// archives (``HARExport`` says how messages map onto HAR).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a recording, or a running host's log, as HAR 1.2 JSON for other tools.",
        discussion: """
            Writes the messages of a recording made by `bridge-inspector record` (FILE), or \
            without FILE of a running host's message log now (--socket/--host, as `snapshot`), \
            as a HAR 1.2 archive (an "HTTP Archive", as browsers' dev tools export): Chrome and \
            Safari dev tools, Charles, Proxyman, Fiddler and HAR viewers open it. The recording \
            itself is not changed; keep it for `bridge-inspector open`.

            How the bridge maps onto HAR: a request from the journey and the host's response \
            (same correlation id) make one entry, `time` being the milliseconds between them; a \
            request never answered has status 0 "no response"; an event is an entry of its own \
            with status 204; malformed input is an entry with status 0 and the reason. The URL \
            is gbgbridge://host/ACTION (sent by the journey) or gbgbridge://journey/ACTION (sent \
            by the host); the message is the body exactly as it crossed the bridge. Bridge \
            statuses: success 200, error 500 (statusText names the code), cancelled 499, \
            unsupported 501. Correlation id, direction, origin and sequence numbers are under \
            each entry's "_bridge".

            Redacted by default, as a HAR is meant to leave the machine: images and other \
            large base64 become e.g. "[redacted image/png 1280x808 48213 bytes \
            sha256:9f2c41d07a3be815]" (type, pixel size, and a hash so equal images still \
            compare equal), and each --field PATH of every message becomes "[redacted 1]", \
            "[redacted 2]", ... (equal values, equal numbers; never hashed). Correlation ids \
            are kept. Standard error says what was replaced; `bridge-inspector redact` \
            explains it in full. --no-redact writes every message exactly as it crossed the \
            bridge, for your own machine only.

            The archive goes to standard output, or to --output FILE. A recording that was cut \
            off is exported up to where it broke, with a warning (exit 5).

            Examples:
              bridge-inspector export --har session.jsonl > session.har
              bridge-inspector export --har --host demo -o now.har
              bridge-inspector export --har session.jsonl --field data.documentNumber -o bug.har
              bridge-inspector export --har session.jsonl --no-redact -o exact.har
            """)

    @Flag(help: "Write HAR 1.2 JSON (the default, and for now the only format).")
    var har = false

    @Argument(help: ArgumentHelp("A recording made by `bridge-inspector record`; without it, the running host's log.", valueName: "file"),
              completion: Completions.recording)
    var file: String?

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the archive to this file instead of standard output.", valueName: "file"),
            completion: Completions.anyFile)
    var output: String?

    @OptionGroup var selection: HostSelection

    @OptionGroup var redaction: RedactOptions

    @Flag(name: .customLong("no-redact"), help: "Keep images, base64 and every field exactly as they crossed the bridge (the archive is then not fit to share).")
    var noRedact = false

    func run() throws {
        try Script.run {
            if noRedact, !redaction.fields.isEmpty {
                throw ScriptError.usage("--field names what to redact, and --no-redact turns redaction off: give one or the other")
            }
            let options = try redaction.options()
            let (state, problem) = try SessionLog.load(file: file, selection: selection, client: "bridge-inspector export", usedAs: "the archive holds")
            var log = state.log
            if !noRedact {
                var redactor = Redactor(options: options)
                log = redactor.redact(log: log)
                StandardStreams.printError("\(redactor.report.summary) (--no-redact keeps them)")
            }
            let export = HARExport(log: log, host: state.host)
            let json = String(decoding: export.json(), as: UTF8.self)
            if let output {
                // As on standard output: valid JSON with the same values, and no character that
                // could act on a terminal should the file be printed.
                let text = Sanitizer.sanitize(json: json)
                do {
                    try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: (output as NSString).expandingTildeInPath), options: .atomic)
                } catch {
                    throw ScriptError(exitCode: ExitCodes.failure, message: "cannot write \(output): \(error.localizedDescription)", hint: "check the folder exists and you may write there")
                }
                StandardStreams.printError("wrote \(export.entryCount) entr\(export.entryCount == 1 ? "y" : "ies") to \(output)")
            } else {
                StandardStreams.printJSON(json)
            }
            if let problem { throw problem }
        }
    }
}
