import BridgeCore
import Foundation
import SocketSupport

/// Where the inspector keeps what a person built up between runs (reply rules, the event
/// history, remembered responses), like a shell keeps its history: `$XDG_STATE_HOME/bridge-inspector`,
/// or `~/.local/state/bridge-inspector` when `XDG_STATE_HOME` is unset or not absolute (the XDG
/// Base Directory rules).
///
/// Each kind of state is one small JSON file, written whole through a temporary file and a
/// rename, so a crash never leaves half a file; the directory is created on first write with
/// mode 0700 and the files with 0600, because a rule or a response can hold test data a person
/// would not share.
///
/// It is trusted only as the socket directory is (``PrivateDirectory``'s rule): a directory of
/// ours that no other user can write to. Anyone who can write to it can plant reply rules, which
/// answer the host's requests for us, so from any other directory nothing is loaded and nothing
/// saved, and ``Problem`` says why and what command fixes it. A symbolic link to a directory of
/// ours is followed (the directory it leads to is judged).
///
/// ```swift
/// let state = StateDirectory()                       // from the environment
/// try state.save(drafts, as: "events.json")
/// let drafts = try state.load([EventDraft].self, from: "events.json") ?? []
/// ```
///
/// Tests pass their own directory (`StateDirectory(path: tmp)`) so a test never reads or writes
/// a person's real state.
public struct StateDirectory: Sendable, Equatable {
    /// The directory's path.
    public var path: String

    /// A state directory at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The state directory the environment names: `$XDG_STATE_HOME/bridge-inspector` when
    /// `XDG_STATE_HOME` is an absolute path, else `$HOME/.local/state/bridge-inspector`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            path = (state as NSString).appendingPathComponent("bridge-inspector")
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            path = (home as NSString).appendingPathComponent(".local/state/bridge-inspector")
        }
    }

    /// The full path of the file `name` in this directory.
    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Why state could not be read or written: the path and what went wrong, in one sentence a
    /// person can act on.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file concerned.
        public var path: String
        /// What went wrong.
        public var reason: String

        /// "cannot read /…/rules.json: …".
        public var description: String { "\(path): \(reason)" }
    }

    /// Checks that the directory can be trusted, if it exists (a directory not made yet is
    /// made private by ``save(_:as:)``).
    ///
    /// - Throws: ``Problem`` naming what is wrong (another user's, writable by others, not a
    ///   directory) and what to do.
    public func verifyTrusted() throws {
        guard let status = PrivateDirectory.status(of: path, followingLinks: true) else { return }
        if let problem = Self.trustProblem(path: path, status: status, userID: PrivateDirectory.currentUserID) { throw problem }
    }

    /// Why a state directory at `path` with `status` is not to be trusted by user `userID`, or
    /// `nil` when it is: ``PrivateDirectory``'s rule with group and other write bits forbidden
    /// (the files in it are 0600 whatever the directory's read bits).
    public static func trustProblem(path: String, status: PrivateDirectory.Status, userID: UInt32) -> Problem? {
        let refused = "another user could plant reply rules in it, so nothing is loaded from it or saved to it"
        // The path goes into commands to copy: one shell word, whatever it holds.
        let word = ShellWord.quoted(path)
        switch PrivateDirectory.problem(with: status, userID: userID, forbiddenModeBits: 0o022) {
        case nil:
            return nil
        case .symbolicLink, .notADirectory:
            let kind = status.notADirectory ?? "a symbolic link"
            return Problem(path: path, reason: "is \(kind), not a directory, so nothing is loaded from it or saved to it. "
                + "Move it away (mv \(word) \(ShellWord.quoted(path + ".old"))) and run again: it will be made anew, private to you")
        case .wrongOwner(let owner, let expected):
            return Problem(path: path, reason: "is owned by uid \(owner), not by you (uid \(expected)): \(refused). "
                + "Move it away or have its owner remove it (rm -r \(word)), or set XDG_STATE_HOME to a directory of your own")
        case .insecureMode(let mode):
            return Problem(path: path, reason: "has mode \(PrivateDirectory.octal(mode)), so other users can write to it: \(refused). "
                + "Check that the files in it are yours, then run: chmod 700 \(word)")
        }
    }

    /// Decodes the file `name`, or returns `nil` when there is no such file yet.
    ///
    /// - Throws: ``Problem`` when the directory is not to be trusted (``verifyTrusted()``), or
    ///   the file exists but cannot be read or is not the expected JSON (the caller says so and
    ///   carries on with nothing loaded; the file is left as it is).
    public func load<Value: Decodable>(_ type: Value.Type, from name: String) throws -> Value? {
        let full = file(name)
        guard FileManager.default.fileExists(atPath: full) else { return nil }
        try verifyTrusted()
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: full))
        } catch {
            throw Problem(path: full, reason: "cannot be read (\(error.localizedDescription))")
        }
        do {
            return try JSONDecoding.decode(type, from: data)
        } catch {
            throw Problem(path: full, reason: "is not a file this version can read; move it away to start afresh")
        }
    }

    /// Encodes `value` as JSON into the file `name`, replacing it whole.
    ///
    /// - Throws: ``Problem`` when the directory is not to be trusted (``verifyTrusted()``) or
    ///   the directory or the file cannot be written.
    public func save<Value: Encodable>(_ value: Value, as name: String) throws {
        let full = file(name)
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try verifyTrusted()
            let data = try JSONEncoding.encode(value, pretty: true)
            let temporary = full + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
            guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw Problem(path: full, reason: "cannot be written (is \(path) writable?)")
            }
            if rename(temporary, full) != 0 {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw Problem(path: full, reason: "cannot be written (\(reason))")
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(path: full, reason: "cannot be written (\(error.localizedDescription))")
        }
    }
}
