import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// A recording opened from a file (`bridge-inspector open FILE`): read-only, and as of its end.
///
/// A recording holds the host's own times (when each message crossed, when each request
/// started waiting), not when the inspector read them. So its clock stands still at the time of
/// its last record (``recordingEnd``): the Pending pane's ages, a slot's BUSY time, held ages,
/// the doctor's verdicts and every other age read as they were when the recording ended, not
/// as of the wall clock years later.
extension InspectorModel {
    /// A read-only model showing a recording's `frames` in order, as of the recording's end.
    ///
    /// `restarts` are the file's host-restart markers: each restart marker takes the time
    /// recorded there. `marks` are the rows marked in the inspector that saved it (`w`): each
    /// marks the row its frame carried with its sequence number again (a mark that names no row
    /// is skipped, and a notice says how many were). `path` is shown where a live inspector
    /// shows its socket.
    ///
    /// ```swift
    /// let contents = Recording.load(from: url)
    /// var model = InspectorModel(recording: contents.frames, restarts: contents.restarts, marks: contents.marks, size: size, path: file)
    /// ```
    public init(recording frames: [AgentFrame], restarts: [Recording.HostRestart] = [], marks: [Recording.Mark] = [], size: Size, path: String) {
        self.init(size: size, socketPath: path, now: 0)
        readOnly = true
        let marksByFrame = Dictionary(grouping: marks, by: \.frame)
        var marksFound = 0
        for (index, frame) in frames.enumerated() {
            if let restart = restarts.first(where: { $0.beforeFrame == index }) {
                now = restart.time
            } else if let last = live.log.last?.time {
                // Markers made while reading (a reattach) take the newest recorded time, not 1970.
                now = max(now, last)
            }
            handle(.frame(frame))
            marksFound += live.applyMarks(marksByFrame[index] ?? [])
        }
        let end = Self.endTime(of: live, restarts: restarts)
        // Every time in the file is the host's: there is no other clock to translate from.
        hostClock = HostClock()
        recordingEnd = end
        now = end
        flash = nil
        if marksFound < marks.count {
            let skipped = marks.count - marksFound
            showFlash("\(skipped) mark\(skipped == 1 ? "" : "s") in the file name\(skipped == 1 ? "s" : "") no row it holds: skipped", isError: true)
        }
    }

    /// The time of a recording's last record: the newest time the host stamped on anything it
    /// holds (a message, a pending request, a busy slot, a held message, lastError) or a restart
    /// marker. Never earlier than any of them, so no age in the recording is negative.
    static func endTime(of state: LiveState, restarts: [Recording.HostRestart]) -> Double {
        var times = [state.log.lazy.map(\.time).filter(\.isFinite).max() ?? 0]
        times += state.pending.map(\.since)
        times += state.slots.compactMap(\.activeSince)
        times += state.held.map(\.since)
        times += state.errorHistory.map(\.time)
        times += restarts.map(\.time)
        return times.filter(\.isFinite).max() ?? 0
    }

    /// "ends 14:02:11.120": the recording's end, for a status line too narrow for
    /// ``recordingSummary``.
    var recordingEndText: String {
        recordingEnd.map { "ends " + timeFormat.clock($0) } ?? ""
    }

    /// "412 messages over 3m12s, to 14:02:11.120": what the status line shows for a recording
    /// in place of a live rate, which a file does not have.
    var recordingSummary: String {
        let messages = live.log.filter { $0.kind == .message || $0.kind == .malformed }
        let count = "\(messages.count) message\(messages.count == 1 ? "" : "s")"
        guard let first = messages.first?.time, let end = recordingEnd else { return count }
        return "\(count) over \(TimeFormat.duration(ms: max(0, end - first))), to \(timeFormat.clock(end))"
    }
}
