import InspectorClient
import InspectorProtocol
import TerminalUI

/// What an overlay wants after handling a key.
enum OverlayAction: Sendable {
    /// Nothing beyond its own change.
    case none
    /// Close this overlay.
    case close
    /// Close this overlay and send a command (recorded in the action log).
    case send(InspectorCommand, label: String)
    /// Close this overlay and send each command, in order (each recorded in the action log).
    case sendAll([(command: InspectorCommand, label: String)])
    /// Keep this overlay open and send a command.
    case sendAndStay(InspectorCommand, label: String)
    /// Open another overlay on top.
    case push(any OverlayView)
    /// Replace this overlay with another: moving between sibling lists (held messages and
    /// breakpoints) without piling one on the other.
    case switchTo(any OverlayView)
    /// Open `$EDITOR`.
    case openEditor(text: String, purpose: EditorPurpose)
    /// Close this overlay and select the log row with this sequence number.
    case jumpToSeq(Int)
    /// Show a brief message.
    case flash(String, isError: Bool)
    /// The key does nothing in this list view: the model says so, pointing to `?` (a view
    /// that takes text never answers this for a typed key).
    case unbound(Key)
    /// Close this overlay, send a command, and keep answering like it with a new reply rule.
    case sendAndRemember(InspectorCommand, label: String, rule: ReplyRule)
    /// Remove the reply rule with this id.
    case removeRule(Int)
    /// Pause or resume the reply rule with this id.
    case toggleRule(Int)
    /// Quit the inspector (confirmed).
    case quit
    /// Copy the log row at this index to the clipboard (the overlay stays open).
    case copy(logIndex: Int, ClipboardFormat)
    /// Close this overlay and add a reply rule, as "remember" in the respond dialog adds one:
    /// the pending requests and every later one are offered to it, and it counts its hits.
    case addRule(ReplyRule)
    /// Close this overlay and save what the inspector holds as a recording at `path`
    /// (``InspectorModel/saveRecording(to:overwrite:)``), replacing a file there only when `overwrite`.
    case saveRecording(path: String, overwrite: Bool)
    /// Close this overlay and ask the runner to read the recording at `path` to compare with
    /// (``InspectorEffect/loadComparison(path:)``).
    case loadComparison(path: String)
    /// Close this overlay and ask the runner to read the fault rules file at `path`
    /// (``InspectorEffect/loadFaultRules(path:)``); its rules are then set one by one.
    case loadFaultRules(path: String)
    /// Close this overlay and save the fault rules listed as a rules file at `path`
    /// (``InspectorModel/saveFaultRules(to:overwrite:)``), replacing a file there only when `overwrite`.
    case saveFaultRules(path: String, overwrite: Bool)
    /// Close every view and run the key table's binding `name` on the main screen, as its key
    /// would (the command prompt and the key browser), with what the prompt took after its name.
    case run(name: String, argument: String?)
}
