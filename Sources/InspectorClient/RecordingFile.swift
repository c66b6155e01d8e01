#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a whole recording made in memory (``LiveState/recording(header:)``: the TUI's `w`) to
/// a file, never over an existing one unless asked, and says what happened in words a person
/// can act on. The TUI's model makes the bytes and asks its runner to write them, so the model
/// stays free of file input and output.
///
/// ```swift
/// switch RecordingFile.write(bytes, to: "session.jsonl", overwrite: false) {
/// case .saved(let path, _): print("saved to \(path)")
/// case .exists(let path): print("\(path) exists")          // ask, then write with overwrite: true
/// case .failed(_, let reason): print(reason)
/// }
/// ```
public enum RecordingFile {
    /// What became of a write.
    public enum Outcome: Sendable, Equatable {
        /// Written: the full path, and how many bytes.
        case saved(path: String, bytes: Int)
        /// Not written: a file is already there (full path) and `overwrite` was not asked for.
        case exists(path: String)
        /// Not written: the full path, and why, with what to do.
        case failed(path: String, reason: String)
    }

    /// The full path `path` names: `~` expanded, a relative path taken from `directory`.
    public static func fullPath(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let absolute = expanded.hasPrefix("/") ? expanded : (directory as NSString).appendingPathComponent(expanded)
        return (absolute as NSString).standardizingPath
    }

    /// Writes `bytes` to `path` (relative to `directory`), replacing a file there only when
    /// `overwrite` is set.
    public static func write(
        _ bytes: [UInt8], to path: String, overwrite: Bool, from directory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let full = fullPath(path, from: directory)
        guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failed(path: full, reason: "no file name given: type one, such as session.jsonl")
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL)
        let descriptor = open(full, flags, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return .exists(path: full) }
            return .failed(path: full, reason: reason(code))
        }
        defer { close(descriptor) }
        if let code = RecordingWriter.writeAll(bytes, to: descriptor) { return .failed(path: full, reason: reason(code)) }
        return .saved(path: full, bytes: bytes.count)
    }

    /// Why a write failed, and what to do about it.
    private static func reason(_ code: Int32) -> String {
        let what = String(cString: strerror(code))
        switch code {
        case ENOENT: return "\(what): the folder does not exist; save into one that does"
        case EACCES, EPERM, EROFS: return "\(what): choose a folder you can write to (your home folder, /tmp)"
        case EISDIR: return "\(what): that is a folder; add a file name, such as session.jsonl"
        case ENOSPC, EDQUOT: return "\(what): free some space or save elsewhere"
        default: return what
        }
    }
}
