import Foundation
import InspectorClient

/// The message log a command reads (`export`, `stats`): a recording made by
/// `bridge-inspector record`, or without one a running host's log now.
enum SessionLog {
    /// The state built from `file` (a recording) or, without it, from the host `selection`
    /// chooses; `problem` is the exit-5 error to throw once the readable part has been used,
    /// when the recording was cut off, its hint starting with `usedAs` ("the archive holds":
    /// "… the 12 frames before line 13"). Giving both a file and a host is a usage error.
    static func load(file: String?, selection: HostSelection, client: String, usedAs: String) throws -> (state: LiveState, problem: ScriptError?) {
        var state = LiveState()
        guard let file else {
            let session = try selection.session(subscribe: false, client: client)
            defer { session.close() }
            _ = try session.perform(.snapshot, hint: nil)
            let (seq, snapshot) = try session.firstSnapshot()
            state.apply(.snapshot(seq: seq, state: snapshot))
            return (state, nil)
        }
        if selection.socket != nil || selection.host != nil {
            throw ScriptError.usage("give either a recording FILE or --socket/--host, not both")
        }
        return try load(file: file, usedAs: usedAs)
    }

    /// The state built from the recording `file`, and the exit-5 error to throw once its
    /// readable part has been used, when it was cut off (as ``load(file:selection:client:usedAs:)``).
    static func load(file: String, usedAs: String) throws -> (state: LiveState, problem: ScriptError?) {
        var state = LiveState()
        let contents = try OpenCommand.loadReadable(file)
        for frame in contents.frames { state.apply(frame, at: 0) }
        guard let broken = contents.problem else { return (state, nil) }
        let problem = ScriptError(
            exitCode: ExitCodes.badRecording, message: "\(file): \(broken)",
            hint: "\(usedAs) the \(contents.frames.count) frame\(contents.frames.count == 1 ? "" : "s") before line \(broken.line)")
        return (state, problem)
    }
}
