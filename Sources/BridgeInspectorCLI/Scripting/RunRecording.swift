import Foundation
import InspectorClient

/// `--record FILE` of the commands that drive a host through a run (`rerun`, `fault-scenario`):
/// what the host did during the run, written as a recording to `open` or `diff` later, never
/// over an existing file.
enum RunRecording {
    /// The full path of `--record`'s file, refused (64) when a file is already there, before the
    /// run starts.
    static func freshFile(_ path: String, command: String) throws -> String {
        let full = RecordingFile.fullPath(path)
        if FileManager.default.fileExists(atPath: full) {
            throw ScriptError.usage(
                "--record \(ScriptOutput.safe(path)): the file exists; \(command) never writes over a file", hint: "choose another file name, or remove it first")
        }
        return full
    }

    /// Writes `state` as a recording of `run` (`the rerun`) to `path`; says where on standard
    /// error unless `quiet`.
    static func write(_ state: LiveState, of run: String, to path: String, socket: String, client: String, quiet: Bool) throws {
        let header = Recording.Header(socket: socket, startedAt: Date().timeIntervalSince1970 * 1000, client: client)
        switch RecordingFile.write(state.recording(header: header), to: path, overwrite: false) {
        case .saved(let path, _):
            if !quiet { StandardStreams.printError("recorded \(run) to \(ScriptOutput.safe(path))") }
        case .exists(let path):
            throw ScriptError.failure("\(ScriptOutput.safe(path)) appeared during \(run); \(run) was not written", hint: "choose another --record file")
        case .failed(let path, let reason):
            throw ScriptError.failure("cannot write \(ScriptOutput.safe(path)): \(reason)")
        }
    }
}
