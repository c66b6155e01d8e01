import Foundation
import InspectorClient
import TestSupport
import Testing

/// Text a journey chose, as it reaches a command line (issue 24, point 1).
@Suite("ShellWord")
struct ShellWordTests {
    /// Ids a journey could choose, each with something a shell would act on.
    static let hostile = [
        "$(>pwned)", "`>pwned`", "$(touch${IFS}pwned)", "x$((6*7))", "a;>pwned", "it's", #"back\slash"#, #"a\'b"#, "''", "~root",
        "{a,b}", "*", "a b", "line\nbreak", "tab\there", "urn:x", "=ls", "%self", "!!", "-e", "é", "\u{1B}[31m",
    ]

    @Test("isInert takes only ASCII letters, digits and -_.,+@/, and nothing empty")
    func inertCharacters() {
        #expect(ShellWord.isInert("web-4fd7-91"))
        #expect(ShellWord.isInert("Doc_7A.b,c+d@e/f"))
        #expect(!ShellWord.isInert(""))
        for text in Self.hostile where text != "-e" {
            #expect(!ShellWord.isInert(text), "\(text.debugDescription)")
        }
        for scalar in (0x20...0x7E).compactMap(Unicode.Scalar.init) {
            let plain = ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
                || "-_.,+@/".unicodeScalars.contains(scalar)
            #expect(ShellWord.isInert(String(scalar)) == plain, "\(scalar)")
        }
    }

    @Test("quoted leaves an inert word bare and puts ' and \\ outside the single quotes")
    func quotedForms() {
        #expect(ShellWord.quoted("web-4fd7") == "web-4fd7")
        #expect(ShellWord.quoted("id:web-4fd7") == "id:web-4fd7")
        #expect(ShellWord.quoted("$(rm x)") == "'$(rm x)'")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWord.quoted(#"a\b"#) == #"'a'\\'b'"#)
        #expect(ShellWord.quoted("") == "''")
    }

    @Test("every quoted word means itself to sh and bash, and runs nothing", arguments: ["/bin/sh", "/bin/bash"])
    func quotedMeansItself(shell: String) throws {
        guard FileManager.default.isExecutableFile(atPath: shell) else { return }
        let directory = try TemporaryDirectory()
        for text in Self.hostile + ["web-4fd7"] {
            let result = try SpawnedProcess.run([shell, "-c", "cd \"$1\" && printf %s " + ShellWord.quoted(text), "sh", directory.path], timeout: 10)
            #expect(result.status == 0, "\(text.debugDescription): \(result.errors)")
            #expect(result.output == text, "\(text.debugDescription) came back as \(result.output.debugDescription)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []) == [])
    }

    @Test("LogFilter.term makes a filter word that matches the id as given, operators and spaces included")
    func filterTerm() throws {
        for id in ["a|b", "x (y) & z", #"q"uote"#, #"back\slash"#, "!bang", "plain-1"] {
            let filter = try LogFilter.parse(LogFilter.term("id:", matching: id))
            let entry = LogEntry(Fixture.request(seq: 1, id: id, action: "nfc.read", at: 0))
            let other = LogEntry(Fixture.request(seq: 2, id: "other", action: "nfc.read", at: 0))
            #expect(filter.matches(entry, pending: []), "\(id)")
            #expect(!filter.matches(other, pending: []), "\(id)")
        }
    }
}
