import InspectorClient
import TerminalUI

/// `=`: what the inspector shows (the live session, or the recording `open` shows) compared with
/// a recording, as the ``DiffView``.
///
/// The model stays pure: ``CompareDialog`` asks for the file, the runner reads it
/// (``InspectorEffect/loadComparison(path:)``) and hands back what it read
/// (``InspectorInput/comparisonLoaded(path:_:)``), which opens the view. `inspect --compare FILE`
/// and `open FILE --compare OTHER` hand it in at the start.
extension InspectorModel {
    /// What the comparison's "after" is called: the open recording's file, or "this session".
    var comparedSubject: String { recordingEnd != nil ? socketPath : "this session" }

    /// Opens the dialog that asks for the recording to compare with.
    mutating func openCompare() -> [InspectorEffect] {
        open(CompareDialog(subject: recordingEnd != nil ? "this recording" : "this session"))
    }

    /// What the runner read at `path`: the comparison opens, or, when nothing in the file can be
    /// used, the dialog comes back with the name and the reason (and a notice says it). A file
    /// cut off is compared up to where it broke, and a notice says where.
    mutating func comparisonLoaded(path: String, contents: Recording.Contents) {
        if contents.frames.isEmpty {
            let reason = contents.problem?.description ?? "nothing in it to compare"
            showFlash("cannot compare with \(path): \(reason)", isError: true)
            overlays.append(CompareDialog(subject: recordingEnd != nil ? "this recording" : "this session", path: path, problem: reason))
            return
        }
        overlays.append(DiffView(contents: contents, name: path, afterName: comparedSubject, afterIsLive: recordingEnd == nil, context: overlayContext))
        if let problem = contents.problem {
            let frames = contents.frames.count
            showFlash("\(path): \(problem); compared the \(frames) frame\(frames == 1 ? "" : "s") before it", isError: true)
        }
    }

    /// Compares again in every open ``DiffView`` that was opened before the host's state came:
    /// called when a snapshot arrives, once, not on every frame.
    mutating func recomputeComparisonsAwaitingHost() {
        for index in overlays.indices {
            guard var view = overlays[index] as? DiffView, view.awaitingHost else { continue }
            view.recompute(context: overlayContext)
            overlays[index] = view
        }
    }
}
