import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

/// The served directory cannot be escaped: `..` in any spelling, symbolic links out of it,
/// encoded separators and control bytes are refused; hidden files are never served.
@Suite("Served directory")
struct ServedDirectoryTests {
    let sandbox: Sandbox
    let directory: ServedDirectory

    init() throws {
        sandbox = try Sandbox()
        directory = try ServedDirectory(path: sandbox.served)
    }

    @Test("ordinary files, subdirectories and index.html are served")
    func ordinaryFiles() throws {
        guard case .file(let index) = directory.resolve("/") else { Issue.record("no index for /"); return }
        #expect(index.path.hasSuffix("/site/index.html"))
        #expect(index.isHTML)
        #expect(index.contentType == "text/html; charset=utf-8")
        guard case .file(let script) = directory.resolve("/js/app.js") else { Issue.record("no /js/app.js"); return }
        #expect(script.contentType == "text/javascript; charset=utf-8")
        #expect(!script.isHTML)
        guard case .file(let nested) = directory.resolve("/js/") else { Issue.record("no /js/ index"); return }
        #expect(nested.path.hasSuffix("/site/js/index.html"))
        #expect(directory.resolve("/js") == .redirect(location: "/js/"))
        // Percent-encoded names and doubled slashes are fine when they stay inside.
        guard case .file(let spaced) = directory.resolve("/with%20space.txt") else { Issue.record("no encoded name"); return }
        #expect(spaced.path.hasSuffix("/with space.txt"))
        guard case .file = directory.resolve("//js//app.js") else { Issue.record("doubled slashes"); return }
        #expect(directory.resolve("/missing.html") == .notFound("no such file in the served directory"))
    }

    @Test("dot-dot segments are refused however they are spelled", arguments: [
        "/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/.%2e/secret.txt",
        "/%2e%2e%2fsecret.txt", "/js%2f..%2f..%2fsecret.txt", "/..", "/js/..", "/./index.html",
    ])
    func dotDot(path: String) {
        guard case .forbidden = directory.resolve(path) else {
            Issue.record("\(path) was not refused: \(directory.resolve(path))")
            return
        }
    }

    @Test("malformed paths are bad requests", arguments: [
        "/%00index.html", "/index.html%00.txt", "/%zz", "/%2", "/js%5c..%5csecret.txt", "/js\\..\\secret.txt", "/%0aindex.html",
        "relative.html", "/%ff%fe",
    ])
    func malformed(path: String) {
        guard case .badRequest = directory.resolve(path) else {
            Issue.record("\(path) was not a bad request: \(directory.resolve(path))")
            return
        }
    }

    @Test("a double-encoded dot-dot is a literal name, not a way out")
    func doubleEncoded() {
        // %252e decodes once to the literal text "%2e", which names no file.
        #expect(directory.resolve("/%252e%252e/secret.txt") == .notFound("no such file in the served directory"))
    }

    @Test("symbolic links that lead out are refused; links that stay inside are followed")
    func symbolicLinks() {
        #expect(directory.resolve("/out-link.txt") == .forbidden("the path leads out of the served directory (through a symbolic link)"))
        #expect(directory.resolve("/out-dir/secret.txt") == .forbidden("the path leads out of the served directory (through a symbolic link)"))
        guard case .forbidden = directory.resolve("/etc-link/passwd") else {
            Issue.record("a link to /etc was followed: \(directory.resolve("/etc-link/passwd"))")
            return
        }
        guard case .file(let inside) = directory.resolve("/in-link.js") else { Issue.record("an inside link was refused"); return }
        #expect(inside.path.hasSuffix("/site/js/app.js"))
    }

    @Test("hidden files and directories are never served")
    func hidden() {
        guard case .notFound = directory.resolve("/.env") else { Issue.record(".env was served"); return }
        guard case .notFound = directory.resolve("/.git/config") else { Issue.record(".git/config was served"); return }
        guard case .notFound = directory.resolve("/%2eenv") else { Issue.record("encoded .env was served"); return }
    }

    @Test("a directory that does not exist, or a file, cannot be served")
    func badRoot() {
        #expect(throws: WebJourneyError.self) { try ServedDirectory(path: sandbox.base + "/nope") }
        #expect(throws: WebJourneyError.self) { try ServedDirectory(path: sandbox.base + "/secret.txt") }
    }
}

/// A temporary tree: `site/` (the served directory) next to `secret.txt`, with links in and out.
final class Sandbox: @unchecked Sendable {
    let base: String
    var served: String { base + "/site" }

    init() throws {
        base = try makeTemporaryDirectory(prefix: "bi-web")
        let files = FileManager.default
        try files.createDirectory(atPath: served + "/js", withIntermediateDirectories: true)
        try files.createDirectory(atPath: served + "/.git", withIntermediateDirectories: true)
        try files.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try "TOP SECRET".write(toFile: base + "/secret.txt", atomically: true, encoding: .utf8)
        try "TOP SECRET".write(toFile: base + "/outside/secret.txt", atomically: true, encoding: .utf8)
        try "<!doctype html><html><head><title>t</title><script>window.pageScript = 1;</script></head><body>hello</body></html>"
            .write(toFile: served + "/index.html", atomically: true, encoding: .utf8)
        try "<p>js index</p>".write(toFile: served + "/js/index.html", atomically: true, encoding: .utf8)
        try "window.app = 1;".write(toFile: served + "/js/app.js", atomically: true, encoding: .utf8)
        try "spaced".write(toFile: served + "/with space.txt", atomically: true, encoding: .utf8)
        try "SECRET=1".write(toFile: served + "/.env", atomically: true, encoding: .utf8)
        try "[core]".write(toFile: served + "/.git/config", atomically: true, encoding: .utf8)
        try files.createSymbolicLink(atPath: served + "/out-link.txt", withDestinationPath: base + "/secret.txt")
        try files.createSymbolicLink(atPath: served + "/out-dir", withDestinationPath: base + "/outside")
        try files.createSymbolicLink(atPath: served + "/etc-link", withDestinationPath: "/etc")
        try files.createSymbolicLink(atPath: served + "/in-link.js", withDestinationPath: "js/app.js")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }
}
