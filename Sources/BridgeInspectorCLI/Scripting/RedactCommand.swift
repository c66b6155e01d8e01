import ArgumentParser
import Foundation
import InspectorClient

/// `bridge-inspector redact IN OUT`: a copy of a recording fit to attach to a bug report
/// (``Redactor`` says what is replaced and what is kept).
struct RedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        abstract: "Write a copy of a recording with images, large base64 and named fields replaced, to share it.",
        discussion: """
            Reads a recording made by `bridge-inspector record` (or saved with `w` in the \
            inspector) and writes a redacted copy to OUT, for a bug report. IN is never changed.

            Replaced, each by a string that says what was there:
              images and other base64: a data: URL, or a run of at least
                --min-base64 base64 characters in any string (malformed text
                included), becomes for example
                "[redacted image/png 1280x808 48213 bytes sha256:9f2c41d07a3be815]":
                the type and pixel size read from the bytes, and the first 16
                hex digits of their SHA-256, so equal images compare equal.
              --field PATH: that field of every bridge message becomes
                "[redacted 1]", "[redacted 2]", ...: one number per distinct
                value in the file, so equal values stay equal. Never hashed:
                a document number's hash can be guessed.
            Kept: everything else, correlation ids included (they are random,
            say nothing about the person, and keep requests threaded with their
            answers).

            A line that is not JSON (a damaged or cut-off line) cannot be \
            redacted with certainty and is left out (exit 5). The copy's header \
            says "redacted":true; it opens, exports and loads like any \
            recording. What was replaced is counted on standard error. OUT is \
            not replaced unless --force is given.

            Check a file before you attach it (each count should be 0):
              grep -cE '[A-Za-z0-9+/]{256,}' shared.jsonl   # long base64 left
              grep -c ';base64,' shared.jsonl               # data: URLs left

            Examples:
              bridge-inspector redact session.jsonl shared.jsonl
              bridge-inspector redact session.jsonl shared.jsonl \\
                  --field data.documentNumber --field 'data.*.dateOfBirth'
            """)

    @Argument(help: ArgumentHelp("The recording to redact (not changed).", valueName: "in"), completion: Completions.recording)
    var input: String

    @Argument(help: ArgumentHelp("Where to write the redacted copy.", valueName: "out"), completion: Completions.recording)
    var output: String

    @OptionGroup var redaction: RedactOptions

    @Flag(help: "Replace OUT if it exists.")
    var force = false

    func run() throws {
        try Script.run {
            let options = try redaction.options()
            let inPath = RecordingFile.fullPath(input)
            let outPath = RecordingFile.fullPath(output)
            if Self.sameFile(inPath, outPath) {
                throw ScriptError.usage("OUT is the same file as IN: the redacted copy is written beside the recording, never over it", hint: "give another file name, such as shared.jsonl")
            }
            // Read once. A file that cannot be read, or in which nothing is readable, is exit 5 as
            // for `open` and `export`.
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: inPath)) else {
                _ = try OpenCommand.loadReadable(input)  // says why: no such file, or cannot read it
                throw ScriptError(exitCode: ExitCodes.badRecording, message: "cannot read \(input)", hint: nil)
            }
            let contents = Recording.load(data: data)
            if RecordingPath.isUnreadable(contents) {
                throw ScriptError(exitCode: ExitCodes.badRecording, message: "\(input): \(contents.problem?.description ?? "nothing readable")", hint: nil)
            }
            var redactor = Redactor(options: options)
            let redacted = redactor.redactRecording(data)
            switch RecordingFile.write([UInt8](redacted), to: output, overwrite: force) {
            case .saved:
                break
            case .exists(let path):
                throw ScriptError.usage("\(path) exists", hint: "give another file name, or --force to replace it")
            case .failed(let path, let reason):
                throw ScriptError.failure("cannot write \(path): \(reason)")
            }
            StandardStreams.printError("\(output): \(redactor.report.summary)")
            if !redactor.report.droppedLines.isEmpty {
                throw ScriptError(
                    exitCode: ExitCodes.badRecording, message: "\(input): some lines were not JSON and were left out of \(output)",
                    hint: "`bridge-inspector open --check \(ScriptOutput.shellWord(output))` shows what the copy holds")
            }
        }
    }

    /// Whether two paths name one file (the same path, or links to one file).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        if first == second { return true }
        let manager = FileManager.default
        guard let one = try? manager.attributesOfItem(atPath: first), let other = try? manager.attributesOfItem(atPath: second) else { return false }
        guard let oneNode = one[.systemFileNumber] as? NSNumber, let otherNode = other[.systemFileNumber] as? NSNumber,
            let oneDevice = one[.systemNumber] as? NSNumber, let otherDevice = other[.systemNumber] as? NSNumber
        else { return false }
        return oneNode == otherNode && oneDevice == otherDevice
    }
}
