import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--token-file PATH`: the TCP token read from the first line of a file, or of standard input
/// for `-`, so that it never appears in the process's arguments.
///
/// A regular file that other users can read or write is refused, as ssh refuses such a key:
/// anyone who can read the token can attach to the app, and anyone who can write it can point
/// the inspector at a token of their choosing. Only the first line is read (its line break and
/// a `\r` before it dropped). Standard input cannot give both the token and `--data -`.
enum TokenFile {
    /// The longest token line read; a real token is 64 characters.
    static let maxBytes = 4_096

    /// The token in `path` (`-` for standard input). Throws ``TokenFileError``.
    static func read(_ path: String) throws -> String {
        if path == "-" { return try token(fromLineOf: STDIN_FILENO, source: "standard input") }
        let expanded = (path as NSString).expandingTildeInPath
        let descriptor = open(expanded, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TokenFileError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TokenFileError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        // Checked on the open file itself, so a file swapped after the check is never read.
        if status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG), status.st_mode & 0o066 != 0 {
            throw TokenFileError.openToOthers(path: path, mode: Int(status.st_mode & 0o777))
        }
        return try token(fromLineOf: descriptor, source: path)
    }

    /// The first line read from `descriptor`, a byte at a time so nothing after it is consumed.
    private static func token(fromLineOf descriptor: Int32, source: String) throws -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count <= maxBytes {
            let count = Foundation.read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        guard bytes.count <= maxBytes else { throw TokenFileError.tooLong(source: source) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw TokenFileError.empty(source: source) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why `--token-file` gave no token.
enum TokenFileError: Error, CustomStringConvertible {
    /// The file cannot be opened or examined.
    case unreadable(path: String, reason: String)
    /// Other users can read or write the file (its permission bits).
    case openToOthers(path: String, mode: Int)
    /// The first line is empty, or there is nothing to read.
    case empty(source: String)
    /// The first line is longer than any token.
    case tooLong(source: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read --token-file \(ScriptOutput.safe(path)): \(reason)"
        case .openToOthers(let path, let mode):
            return "--token-file \(ScriptOutput.safe(path)) can be read or written by other users (mode \(String(mode, radix: 8))); "
                + "make it yours alone with `chmod 600 \(ScriptOutput.shellWord(path))`"
        case .empty(let source) where source == "standard input":
            return "--token-file -: the first line of standard input is empty (--data - cannot read standard input too: give one of them a file)"
        case .empty(let source):
            return "--token-file: the first line of \(ScriptOutput.safe(source)) is empty; put the token from the app's console line there"
        case .tooLong(let source):
            return "--token-file: the first line of \(ScriptOutput.safe(source)) is over \(TokenFile.maxBytes) bytes, which no token is; is it the right file?"
        }
    }
}
