import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The whole state of the interactive inspector: what the host told us, plus what the person is
/// doing with it (focus, cursor, filter, dialogs). Changed only by ``handle(_:)``; drawn by
/// ``render()``. No curses, no sockets: tests drive it with inputs and read the screen as text.
///
/// ```swift
/// var model = InspectorModel(size: Size(width: 120, height: 40), socketPath: path)
/// model.handle(.frame(snapshotFrame))
/// let effects = model.handle(.key(.char("r")))
/// print(model.render().rendered())
/// ```
public struct InspectorModel: Sendable {
    /// What the host told us, merged across reconnects.
    public internal(set) var live = LiveState()
    /// The terminal size.
    public internal(set) var size: Size {
        didSet {
            guard size != oldValue else { return }
            relayout()
        }
    }
    /// The socket this inspector attaches to (shown in the status line); changes when a
    /// followed host is run again (``InspectorInput/attaching(socketPath:note:)``).
    public internal(set) var socketPath: String
    /// The host name followed across runs (`--host NAME`), or `nil` when the inspector stays on
    /// one socket. While no host of the name runs, the screen says it is waiting for one.
    public var followedHost: String?
    /// Now, in milliseconds since 1970 (advanced by ticks; injectable for tests).
    public internal(set) var now: Double
    /// How times are shown.
    public var timeFormat = TimeFormat()
    /// Nothing can be sent: a recording opened offline, or a live host watched with
    /// `--read-only`. The keys that send are left out of the footer and help, and refuse.
    public var readOnly = false
    /// For a recording opened from a file (``init(recording:restarts:size:path:)``), the time of
    /// its last record: every age is measured to it, not to the wall clock. `nil` when live.
    public internal(set) var recordingEnd: Double?

    /// Why nothing can be sent from this inspector, as a notice starts: a recording, or a live
    /// host watched with `--read-only` (for pairing and demos).
    var readOnlyWhy: String { recordingEnd == nil ? "this inspector is read-only (--read-only)" : "this is a recording" }
    /// The agent's number for this inspector's connection (from its hello): the breakpoints
    /// whose `ownerClient` it is are ours. `nil` before a hello or from an older agent.
    public internal(set) var clientId: Int?

    /// The focused pane.
    public internal(set) var focus: Pane = .messages {
        didSet { if zoomed, focus != oldValue { relayout() } }
    }
    /// The focused pane fills the screen (`z` toggles it; Tab moves the zoom to the next pane).
    public internal(set) var zoomed = false {
        didSet { if zoomed != oldValue { relayout() } }
    }
    /// The active filter.
    public internal(set) var filter: LogFilter = .all
    /// The active search (highlighted, `n`/`N` jump between matches).
    public internal(set) var search: LogFilter?
    /// Indices into `live.log` of the rows the filter lets through, in order.
    public internal(set) var visible: [Int] = []
    /// How much of `live.log` `visible` has examined.
    var examined = 0
    /// The log's viewport over ``visible``: selection, scroll, follow and pause.
    public internal(set) var viewport: LogViewport
    /// The selected row, an index into ``visible``.
    public var cursor: Int { viewport.cursor }
    /// The first row shown, an index into ``visible``.
    public var scroll: Int { viewport.scroll }
    /// Follow mode (``LogViewport/following``): the cursor stays on the newest row as rows arrive.
    public var following: Bool { viewport.following }
    /// While paused, the log's length when it paused: new rows are collected but not shown (the count is).
    public var pausedAt: Int? { viewport.pausedAt }
    /// The selected pending request.
    public internal(set) var pendingCursor = 0 {
        didSet { pendingTop = firstPendingShown(rows: layout.pending.height - 2) }
    }
    /// The first pending request the Pending pane showed when the selection last moved: the list
    /// scrolls the least that keeps the selection in view (``firstPendingShown(rows:)``), so a
    /// row clicked stays under the pointer for the second click that opens it.
    var pendingTop = 0
    /// The selected slot (0 document, 1 selfie).
    public internal(set) var slotCursor = 0

    /// Modal views on top of the main screen, innermost last.
    var overlays: [any OverlayView] = []
    /// The filter or search prompt, when open.
    public internal(set) var prompt: Prompt?
    /// A brief message: the result of the last action.
    public internal(set) var flash: Flash?
    /// Everything the inspector did on the person's behalf, oldest first (an audit log).
    public internal(set) var actions: [ActionRecord] = []
    /// Every notice shown, oldest first (the newest ``NoticeRecord/limit``): the action log
    /// lists them with the actions, so a notice gone from the screen can be read in full.
    public internal(set) var notices: [NoticeRecord] = []
    /// The wall clock of the latest tick, which times notices; `nil` before the first tick.
    /// It is ``now`` when live; a recording's ``now`` stays at its end while this runs on.
    var noticeClock: Double?
    /// Commands sent and not yet answered, by id.
    var inFlight: [String: Int] = [:]
    /// Events fired from this inspector, newest last, for recall in the event dialog.
    public internal(set) var eventHistory: [EventDraft] = []
    /// The last event fired in this run, and the host (`name.pid`) it went to: the event dialog
    /// opens with it for that host only (an event from another run or host is only recalled).
    var lastEventSent: (draft: EventDraft, host: String)?
    /// Arrival times of recent messages, for the rate in the status line.
    var recentArrivals: [Double] = []
    /// Set when the person asked to quit.
    public internal(set) var quitting = false
    /// The reply rules this inspector applies to pending requests, with their hit counts.
    public var rules: ReplyRuleBook { replies.book }
    /// When the rules answer what (shared with `auto-respond`).
    var replies = ReplyScheduler()
    /// The host's clock, for the pending requests' ages (abandoned requests are not answered by rules).
    var hostClock = HostClock()
    /// Rule answers sent and not yet settled: action label → correlation id.
    var ruleReplyLabels: [String: String] = [:]
    /// Responses sent by hand, per action, offered first by the respond dialog's Ctrl-T; the
    /// runner keeps them between runs with ``InspectorStateStore``.
    public var rememberedResponses = RememberedResponses()
    /// The dialog closed by its last send, reopened if that send fails before reaching the host.
    var unsentDialog: (label: String, overlay: any OverlayView)?

    /// Creates a model for a screen of `size`.
    public init(size: Size, socketPath: String, now: Double = Date().timeIntervalSince1970 * 1000) {
        self.size = size
        self.layout = MainLayout(size: size)
        self.viewport = LogViewport(rows: layout.messageRows)
        self.socketPath = socketPath
        self.now = now
    }

    /// Where each part of the screen goes for ``size``: made when the size changes, not on every
    /// frame (each frame from the agent scrolls the log, and scrolling asks for it).
    private(set) var layout: MainLayout

    /// Lays the screen out again for its size and zoom, and gives the log its new height.
    mutating func relayout() {
        layout = MainLayout(size: size, zoomed: zoomed ? focus : nil)
        viewport.resize(rows: layout.messageRows)
    }

    /// The correlation ids waiting in pendingRequests.
    var pendingIds: Set<String> { Set(live.pending.map(\.correlationId)) }

    /// The selected log row, if any.
    public var selectedEntry: LogEntry? {
        guard visible.indices.contains(cursor) else { return nil }
        return live.log[visible[cursor]]
    }

    /// The selected pending request, if any.
    public var selectedPending: WirePending? {
        live.pending.indices.contains(pendingCursor) ? live.pending[pendingCursor] : nil
    }

    /// The selected slot, if any.
    public var selectedSlot: WireSlot? {
        live.slots.indices.contains(slotCursor) ? live.slots[slotCursor] : nil
    }

    /// Messages per second over the last five seconds.
    public var messageRate: Double {
        let window = 5000.0
        let count = recentArrivals.reversed().prefix { now - $0 <= window }.count
        return Double(count) / (window / 1000)
    }
}

/// A brief message shown above the footer.
public struct Flash: Sendable, Equatable {
    /// The text (host errors verbatim).
    public var text: String
    /// Whether it reports a failure.
    public var isError: Bool
    /// When it disappears (milliseconds since 1970).
    public var until: Double
}

/// One action the inspector took on the person's behalf.
public struct ActionRecord: Sendable, Equatable {
    /// When it was asked for.
    public var time: Double
    /// What it was, for a person: "respond success to req-1".
    public var label: String
    /// The command id, once sent.
    public var commandId: String?
    /// The outcome: `nil` while waiting, then the result or the host's error.
    public var outcome: Outcome?

    /// How an action ended.
    public enum Outcome: Sendable, Equatable {
        /// The host did it.
        case done
        /// The host refused, with its message.
        case refused(String)
    }
}

/// A remembered event, for the event dialog's history (kept between runs in `events.json`).
public struct EventDraft: Codable, Sendable, Equatable {
    /// The event name.
    public var name: String
    /// Its data as JSON text.
    public var dataText: String

    /// Creates a draft.
    public init(name: String, dataText: String) {
        self.name = name
        self.dataText = dataText
    }
}

/// The bottom-line prompt for a filter or a search.
public struct Prompt: Sendable, Equatable {
    /// Filter narrows the log; search highlights and jumps.
    public enum Kind: Sendable, Equatable {
        case filter
        case search
    }

    /// Which prompt.
    public var kind: Kind
    /// What has been typed.
    public var input: TextInput
    /// The parse error of what has been typed, shown as you type.
    public var error: String?
}
