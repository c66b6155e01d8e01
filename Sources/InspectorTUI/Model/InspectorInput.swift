import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Everything that can happen to the inspector: the only way its state changes.
///
/// The runner turns keys, resizes, socket frames and clock ticks into inputs and feeds them to
/// ``InspectorModel/handle(_:)``; tests feed them directly.
public enum InspectorInput: Sendable {
    /// A key was pressed.
    case key(Key)
    /// The terminal has a new size.
    case resize(Size)
    /// A click or a turn of the wheel, when the runner turned mouse reporting on: a click
    /// focuses and selects what is under the pointer (a second click on the selected row opens
    /// it, as Enter does), the wheel moves through the pane under the pointer or the open view.
    /// Never sends anything to the host by itself.
    case mouse(MouseEvent)
    /// The agent sent a frame.
    case frame(AgentFrame)
    /// The connection to the host was lost.
    case disconnected
    /// The clock moved on (milliseconds since 1970); ages and rates are recomputed.
    case tick(Double)
    /// A command asked for by ``InspectorEffect/send(_:label:)`` went out with this id.
    case commandSent(id: String, label: String)
    /// Sending a command failed before it reached the host.
    case commandFailed(label: String, error: String)
    /// `$EDITOR` finished: its text, or `nil` when it failed or was cancelled.
    case editorFinished(purpose: EditorPurpose, text: String?)
    /// The runner is attaching to `socketPath` (a followed host's new process); `note` says
    /// why this host was chosen when several of the name were running.
    case attaching(socketPath: String, note: String?)
    /// Something the person should read, from outside the model (a recording that broke off).
    case notice(String, isError: Bool)
    /// The runner wrote (or could not write) the recording ``InspectorEffect/saveRecording(path:bytes:overwrite:)``
    /// asked for (``RecordingFile/write(_:to:overwrite:from:)`` says what happened).
    case recordingSaved(RecordingFile.Outcome)
    /// The runner read the recording at `path` that ``InspectorEffect/loadComparison(path:)``
    /// asked for (or `inspect --compare`, `open --compare` named): what it could read, with its
    /// problem if it broke. The model compares it with what it shows (``DiffView``).
    case comparisonLoaded(path: String, Recording.Contents)
    /// The runner read the fault rules file at `path` that ``InspectorEffect/loadFaultRules(path:)``
    /// asked for (``FaultRuleFile/read(file:)``): its rules, or where and why it could not be used.
    /// The model sets each rule (`addFault`) or reopens the dialog with the reason.
    case faultRulesLoaded(path: String, Result<FaultRuleFile, FaultRuleFileError>)
    /// The runner wrote (or could not write) the fault rules file
    /// ``InspectorEffect/saveFaultRules(path:bytes:overwrite:)`` asked for.
    case faultRulesSaved(RecordingFile.Outcome)
}

/// What the runner must do on the inspector's behalf after an input.
public enum InspectorEffect: Sendable, Equatable {
    /// Send a command to the agent, then report `commandSent` (or `commandFailed`).
    case send(InspectorCommand, label: String)
    /// Suspend the screen, open `$EDITOR` on `text`, then report `editorFinished`.
    case openEditor(text: String, purpose: EditorPurpose)
    /// Leave the inspector.
    case quit
    /// Put these bytes on the clipboard: write ``ClipboardSequence/osc52(_:insideTmux:)`` of
    /// them to the terminal (the model has already checked their size and said so).
    case copyToClipboard([UInt8])
    /// Write these bytes, a recording of what the inspector holds (`w`), to `path` with
    /// ``RecordingFile/write(_:to:overwrite:from:)``, replacing a file there only when
    /// `overwrite`; then report ``InspectorInput/recordingSaved(_:)``.
    case saveRecording(path: String, bytes: [UInt8], overwrite: Bool)
    /// Read the recording at `path` (`=`: compare with a recording) with
    /// ``Recording/load(from:)``, then report ``InspectorInput/comparisonLoaded(path:_:)``.
    case loadComparison(path: String)
    /// Read the fault rules file at `path` (`o` in the fault rules view) with
    /// ``FaultRuleFile/read(file:)``, then report ``InspectorInput/faultRulesLoaded(path:_:)``.
    case loadFaultRules(path: String)
    /// Write these bytes, a fault rules file of the rules listed (`s` in the fault rules view),
    /// to `path` as ``saveRecording(path:bytes:overwrite:)`` writes a recording; then report
    /// ``InspectorInput/faultRulesSaved(_:)``.
    case saveFaultRules(path: String, bytes: [UInt8], overwrite: Bool)
}

/// Which field an `$EDITOR` session edits.
public enum EditorPurpose: String, Sendable, Equatable {
    /// The data JSON of a response.
    case responseData
    /// The data JSON of an event.
    case eventData
    /// A held message's whole JSON, edited before release.
    case heldMessage
    /// A journey message's whole JSON, edited before it is replayed.
    case replayMessage
}
