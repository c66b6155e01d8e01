import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory a web journey is served from, and the one place request paths become files.
///
/// A request path is percent-decoded exactly once and then checked segment by segment: `..` and
/// `.` segments, backslashes, NUL and other control bytes, and invalid percent escapes are refused
/// before the file system is touched; names starting with `.` (`.git`, `.env`) are never served.
/// The file that remains is resolved with `realpath`, and served only when the resolved path is
/// still inside the (resolved) served directory: a symbolic link that points out of it is refused,
/// one that stays inside is followed.
///
/// ```swift
/// let directory = try ServedDirectory(path: "examples/web-journey")
/// switch directory.resolve("/index.html") { case .file(let file): ...; default: ... }
/// ```
struct ServedDirectory: Sendable {
    /// The served directory, absolute, with every symbolic link resolved.
    let root: String

    /// A file that may be served.
    struct File: Sendable, Equatable {
        /// Its absolute path with every symbolic link resolved (inside ``ServedDirectory/root``).
        var path: String
        /// Its size in bytes.
        var size: Int
        /// The `Content-Type` to send.
        var contentType: String
        /// Whether it is an HTML page (the bridge bootstrap is injected into those).
        var isHTML: Bool
    }

    /// What a request path comes to.
    enum Resolution: Sendable, Equatable {
        /// Serve this file.
        case file(File)
        /// A directory asked for without its trailing slash: redirect to `location`.
        case redirect(location: String)
        /// Malformed: bad percent escapes, control bytes, backslashes, not an absolute path.
        case badRequest(String)
        /// An attempt to leave the served directory (`..`, or a symbolic link that points out).
        case forbidden(String)
        /// Nothing to serve there (including hidden files and anything that is not a regular file).
        case notFound(String)
    }

    /// Opens `path` as the served directory; throws when it does not exist or is not a directory.
    init(path: String) throws(WebJourneyError) {
        guard let resolved = Self.realPath(path) else {
            throw .servedDirectory(path: path, problem: "it does not exist")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .servedDirectory(path: path, problem: "it is not a directory")
        }
        root = resolved
    }

    /// Resolves the path part of a request target (everything before `?`), as sent on the wire.
    func resolve(_ rawPath: String) -> Resolution {
        let segments: [String]
        switch Self.segments(of: rawPath) {
        case .failure(let refusal):
            return refusal.resolution
        case .success(let decoded):
            segments = decoded
        }
        if let hidden = segments.first(where: { $0.hasPrefix(".") }) {
            return .notFound("\"\(hidden)\" is hidden: names starting with \".\" are never served")
        }
        let candidate = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
        guard let real = Self.realPath(candidate) else {
            return .notFound("no such file in the served directory")
        }
        guard isInside(real) else {
            return .forbidden("the path leads out of the served directory (through a symbolic link)")
        }
        var info = stat()
        guard stat(real, &info) == 0 else { return .notFound("no such file in the served directory") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            guard rawPath.hasSuffix("/") else {
                return .redirect(location: rawPath + "/")
            }
            guard let index = Self.realPath(real + "/index.html") else {
                return .notFound("the directory has no index.html")
            }
            guard isInside(index) else {
                return .forbidden("the path leads out of the served directory (through a symbolic link)")
            }
            return file(at: index)
        }
        return file(at: real)
    }

    private func file(at path: String) -> Resolution {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .notFound("not a regular file")
        }
        let type = ContentType.forFile(path)
        return .file(File(path: path, size: Int(info.st_size), contentType: type.header, isHTML: type.isHTML))
    }

    private func isInside(_ path: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    // MARK: Decoding

    /// Why a path was refused before touching the file system.
    struct Refusal: Error, Sendable, Equatable {
        var resolution: Resolution
    }

    /// The decoded, checked segments of a request path (empty segments dropped).
    static func segments(of rawPath: String) -> Result<[String], Refusal> {
        guard rawPath.hasPrefix("/") else {
            return .failure(Refusal(resolution: .badRequest("the request path must start with \"/\"")))
        }
        let bytes: [UInt8]
        switch percentDecode(rawPath) {
        case nil:
            return .failure(Refusal(resolution: .badRequest("the path has an invalid percent escape")))
        case .some(let decoded):
            bytes = decoded
        }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .failure(Refusal(resolution: .badRequest("the path contains a control character")))
        }
        if bytes.contains(UInt8(ascii: "\\")) {
            return .failure(Refusal(resolution: .badRequest("the path contains a backslash")))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Refusal(resolution: .badRequest("the path is not valid UTF-8")))
        }
        var segments: [String] = []
        for segment in text.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == ".." || segment == "." {
                return .failure(Refusal(resolution: .forbidden("\"\(segment)\" segments are not allowed: the path must stay inside the served directory")))
            }
            segments.append(String(segment))
        }
        return .success(segments)
    }

    /// `%XX` escapes decoded once; `nil` when an escape is malformed.
    static func percentDecode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = hexValue(bytes[bytes.startIndex]),
                let low = hexValue(bytes[bytes.startIndex + 1])
            else { return nil }
            output.append(high << 4 | low)
            bytes = bytes.dropFirst(2)
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `realpath(3)`: the absolute path with every link resolved, or `nil` when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
