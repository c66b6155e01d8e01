import TerminalUI

/// A view over the main screen: a dialog, a list or a page of text that takes the keys until it
/// closes. The model keeps the open ones as a stack (``InspectorModel/overlays``), draws them
/// innermost last and gives the innermost each key; Esc backs out of it.
///
/// A view reads the model through an ``OverlayContext`` and never changes it: it changes itself
/// and answers each key with an ``OverlayAction`` (close, send a command, open another view …)
/// that the model carries out. So a view is tested by pressing keys on a model and reading the
/// screen as text, like every other part of the inspector.
///
/// Adding a view is one file in `Overlays/` and one line in ``InspectorModel/keyTable``, which
/// gives it its key, its line in the help and, if it sends, its refusal in a recording:
///
/// ```swift
/// // Overlays/UptimeView.swift
/// struct UptimeView: OverlayView {
///     mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
///         key == .escape || key == .char("q") ? .close : .none
///     }
///     func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
///         let inner = DialogFrame.full(&buffer, area: area, title: "Uptime")
///         buffer.write("\(context.live.log.count) messages", at: inner.origin, maxWidth: inner.width)
///     }
///     var footerKeys: [(key: String, label: String)] { [("Esc", "back")] }
/// }
///
/// // InspectorModel+KeyTable.swift
/// KeyBinding("uptime", [.char("U")], .messages, .line(keys: "U", text: "uptime")) { model, _ in model.open(UptimeView()) },
/// ```
///
/// `?` and F1 open the help over any view (the key table's "help" binding), except that `?` is
/// text in a view that ``takesText``.
protocol OverlayView: Sendable {
    /// Handles a key: changes the view, and says what the model must do.
    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction

    /// Draws the view over `area` (the screen between the status line and the footer).
    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext)

    /// The keys that matter now, for the footer, most important first (a narrow footer drops
    /// the last ones).
    var footerKeys: [(key: String, label: String)] { get }

    /// The keys among ``footerKeys`` that send something to the host: a recording leaves their
    /// hints out. None unless a view says otherwise (OverlayView+Recording.swift).
    var sendingFooterKeys: Set<String> { get }

    /// Whether a character typed is text here (a form, or a search being typed): `?` is then
    /// typed, and only F1 opens the help. `false` unless a view says otherwise.
    var takesText: Bool { get }

    /// The label of the command this view sent and stays open for: the host's answer closes it,
    /// its refusal shows in it (``refused(_:)``). `nil` (the default) for a view that does not wait.
    var awaitingLabel: String? { get }

    /// Shows why the command this view sent failed (the host refused it, or it never reached the
    /// host and the closed view was opened again), keeping what was typed. Does nothing by default.
    mutating func refused(_ message: String)

    /// Catches up with the host's state after it changed (a frame applied, the connection
    /// lost): a view that shows what it works out from the whole log keeps that here, counting
    /// only what arrived (``StatsView``), instead of working it out again on every frame. The
    /// model calls it on every open view after each change. Does nothing by default.
    mutating func follow(context: OverlayContext)

    /// Takes the text written in `$EDITOR` (opened by ``OverlayAction/openEditor(text:purpose:)``)
    /// when it is for `purpose`, and says whether it took it: the model offers it to the open
    /// views, innermost first. Takes nothing by default.
    mutating func editorFinished(_ purpose: EditorPurpose, text: String) -> Bool
}

extension OverlayView {
    var takesText: Bool { false }

    var awaitingLabel: String? { nil }

    mutating func refused(_ message: String) {}

    mutating func follow(context: OverlayContext) {}

    mutating func editorFinished(_ purpose: EditorPurpose, text: String) -> Bool { false }
}
