import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// `bridge-inspector redact` and `export --har`'s default redaction on a recording of a real
/// demo host whose document capture was completed with the host's real PNG (issue 28, part 4:
/// "redacted recordings contain no image bytes and still" load).
@Suite("Scripting: redact", .serialized)
struct ScriptingRedactTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("redact removes the captured image (and a named field) from a real recording, says what it replaced, and the copy still loads; export --har redacts unless --no-redact")
    func redactRealRecording() async throws {
        let host = try await ScriptedHost.held(binary: binary)
        defer { host.stop() }
        let complete = try await host.run(["slot", "document", "complete"], binary: binary)
        #expect(complete.status == 0, "\(complete)")
        let file = host.directory.file("session.jsonl")
        let recorded = try await host.run(["record", file, "--duration", "1"], binary: binary)
        #expect(recorded.status == 0, "\(recorded)")

        // The recording holds the PNG the host drew, as base64.
        let original = Recording.load(from: URL(fileURLWithPath: file))
        #expect(original.problem == nil)
        var state = LiveState()
        for frame in original.frames { state.apply(frame, at: 0) }
        let answer = try #require(state.log.first { $0.correlationId == "cap-1" && $0.type == .response }, "the capture's answer is in the recording")
        guard case .string(let base64)? = answer.message?.payload.data?["imageBase64"] else {
            Issue.record("no imageBase64 in \(String(decoding: answer.json, as: UTF8.self).prefix(300))")
            return
        }
        let image = try #require(Data(base64Encoded: base64))
        let imagePrefix = String(base64.prefix(60))
        let originalText = try String(contentsOfFile: file, encoding: .utf8)
        #expect(originalText.contains(imagePrefix))

        let shared = host.directory.file("shared.jsonl")
        let redacted = try await runCLI(["redact", file, shared, "--field", "data.documentType"], binary: binary)
        #expect(redacted.status == 0, "\(redacted)")
        #expect(redacted.stderr.contains("redacted 1 image,") || redacted.stderr.contains("redacted 2 images,"), "\(redacted)")
        #expect(redacted.stderr.contains("0 other base64 values"), "\(redacted)")
        let sharedText = try String(contentsOfFile: shared, encoding: .utf8)
        #expect(!sharedText.contains(imagePrefix), "the image's base64 is gone")
        let hash = String(SHA256.hex(image).prefix(16))
        #expect(sharedText.contains("[redacted image/png 1280x808 \(image.count) bytes sha256:\(hash)]"), "\(sharedText.prefix(2000))")
        #expect(sharedText.contains(#""correlationId":"cap-1""#), "correlation ids are kept")
        // nfc-1's documentType, in the snapshot's messages and its pending list: one token.
        #expect(!sharedText.contains("passport") && sharedText.contains(#""documentType":"[redacted 1]""#))
        #expect(redacted.stderr.contains("2 named fields"), "\(redacted)")
        #expect(sharedText.hasPrefix(#"{"kind":"recording","version":1,"#) && sharedText.split(separator: "\n").first?.contains(#""redacted":true"#) == true)

        let reloaded = Recording.load(from: URL(fileURLWithPath: shared))
        #expect(reloaded.problem == nil)
        #expect(reloaded.frames.count == original.frames.count)
        let check = try await runCLI(["open", "--check", shared], binary: binary)
        #expect(check.status == 0, "\(check)")
        // It still compares: against the session it came from, no difference (the image by its
        // descriptor, the named field left out).
        let compared = try await runCLI(["diff", file, shared], binary: binary)
        #expect(compared.status == 0, "\(compared)")
        #expect(compared.stdout.contains("no differences"), "\(compared)")

        // Never over IN; over an existing OUT only with --force.
        let overInput = try await runCLI(["redact", file, file], binary: binary)
        #expect(overInput.status == 64, "\(overInput)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == originalText)
        let exists = try await runCLI(["redact", file, shared], binary: binary)
        #expect(exists.status == 64, "\(exists)")
        #expect(exists.stderr.contains("--force"), "\(exists)")
        let forced = try await runCLI(["redact", file, shared, "--force"], binary: binary)
        #expect(forced.status == 0, "\(forced)")
        let badField = try await runCLI(["redact", file, host.directory.file("x.jsonl"), "--field", "data..x"], binary: binary)
        #expect(badField.status == 64, "\(badField)")

        // export --har: redacted by default, exact with --no-redact.
        let har = try await runCLI(["export", "--har", file], binary: binary)
        #expect(har.status == 0, "\(har)")
        #expect(!har.stdout.contains(imagePrefix))
        #expect(har.stdout.contains("[redacted image/png 1280x808 \(image.count) bytes sha256:\(hash)]"))
        #expect(har.stderr.contains("redacted 1 image"), "\(har)")
        let exact = try await runCLI(["export", "--har", file, "--no-redact"], binary: binary)
        #expect(exact.status == 0, "\(exact)")
        #expect(exact.stdout.contains(imagePrefix))
        #expect(!exact.stderr.contains("redacted"), "\(exact)")
        // The redacted recording exports too, and gives the same archive as a redacted export.
        let fromShared = try await runCLI(["export", "--har", shared], binary: binary)
        #expect(fromShared.status == 0, "\(fromShared)")
        #expect(!fromShared.stdout.contains(imagePrefix))
    }

    @Test("docs/cli.md shows exactly what redact --help and export --help print (docs/update-cli-help.sh regenerates them)", arguments: ["redact", "export"])
    func helpDocumented(subcommand: String) async throws {
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let help = try await runCLI([subcommand, "--help"], binary: binary, environment: ["COLUMNS": "80"])
        #expect(help.status == 0, "\(help)")
        let block = "```text\n$ bridge-inspector \(subcommand) --help\n" + help.stdout.trimmingCharacters(in: .newlines) + "\n```"
        #expect(docs.contains(block), "docs/cli.md is out of date for \(subcommand): run `swift build && docs/update-cli-help.sh`")
    }
}
