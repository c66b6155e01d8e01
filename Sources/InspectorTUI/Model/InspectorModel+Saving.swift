import Foundation
import InspectorClient
import TerminalUI

/// `w`: what the inspector holds now, saved as a recording that `open` reads back, live or in a
/// recording, without `record` having run (``LiveState/recording(header:)`` makes the bytes).
///
/// The model makes the bytes and asks the runner to write them
/// (``InspectorEffect/saveRecording(path:bytes:overwrite:)``), as `y` asks it to copy: no file
/// input or output here. The runner reports back (``InspectorInput/recordingSaved(_:)``): saved
/// (a notice with the full path, kept in the action log), a file already there (the dialog asks
/// whether to replace it), or why it could not write.
extension InspectorModel {
    /// The client name a saved recording's header gives.
    static let savedRecordingClient = "bridge-inspector (w)"

    /// Opens the save dialog, prefilled with ``defaultRecordingPath``; says so when nothing
    /// has come from a host yet.
    mutating func openSave() -> [InspectorEffect] {
        guard live.host != nil || !live.log.isEmpty else {
            showFlash("nothing to save yet: no host has sent its state", isError: true)
            return []
        }
        return open(SaveDialog(path: defaultRecordingPath, summary: saveSummary))
    }

    /// `./bridge-session-YYYYMMDD-HHMMSS.jsonl`, in local time of the model's clock (the wall
    /// clock of the latest tick, so a recording's copy is named for today, not for its end).
    var defaultRecordingPath: String {
        let ms = noticeClock ?? now
        let date = Date(timeIntervalSince1970: (ms.isFinite ? ms : 0) / 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: timeFormat.utcOffsetSeconds) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let day = pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2)
        let time = pad(parts.hour, 2) + pad(parts.minute, 2) + pad(parts.second, 2)
        return "./bridge-session-\(day)-\(time).jsonl"
    }

    /// What a save holds, in a few words: "12 rows (3 marked), 2 pending, lastError".
    var saveSummary: String {
        let rows = live.log.filter { $0.kind == .message || $0.kind == .malformed }.count
        var parts = ["\(rows) row\(rows == 1 ? "" : "s")" + (live.markedCount > 0 ? " (\(live.markedCount) marked)" : "")]
        if !live.pending.isEmpty { parts.append("\(live.pending.count) pending") }
        if !live.held.isEmpty { parts.append("\(live.held.count) held") }
        if live.lastError != nil { parts.append("lastError") }
        return parts.joined(separator: ", ")
    }

    /// Makes the recording's bytes now and asks the runner to write them to `path`.
    mutating func saveRecording(to path: String, overwrite: Bool) -> [InspectorEffect] {
        let started = live.log.first { $0.kind == .message || $0.kind == .malformed }?.time ?? now
        let header = Recording.Header(socket: socketPath, startedAt: started, client: Self.savedRecordingClient)
        return [.saveRecording(path: path, bytes: live.recording(header: header), overwrite: overwrite)]
    }

    /// What the runner made of a save.
    mutating func recordingSaved(_ outcome: RecordingFile.Outcome) {
        switch outcome {
        case .saved(let path, let bytes):
            showFlash(
                "saved \(saveSummary), \(TimeFormat.bytes(bytes)), to \(path) (open it with bridge-inspector open \(ShellWord.quoted(path)))",
                isError: false)
        case .exists(let path):
            open(SaveDialog(path: path, summary: saveSummary, existing: path))
        case .failed(let path, let reason):
            showFlash("not saved to \(path): \(reason) (w to try again)", isError: true)
        }
    }
}
