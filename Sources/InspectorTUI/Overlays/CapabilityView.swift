import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The capability view (`v`): what the host offers the journey, and what `capability.query`
/// would answer now. Each typed capture slot (its capability id, version, enabled, handler,
/// permission and whether it is reported supported), each custom capability (version, handler,
/// and the slot that shadows it when one has its id), then the exact `data` of the
/// `capability.query` answer, pretty-printed.
///
/// The answer is worked out by BridgeCore's own rules (``CapabilityQueryAnswer``, which
/// `BridgeHost`'s built-in handler answers with) from the slots and custom capabilities the host
/// reported, so it is what a host made with `BridgeHost(hostVersion:)` answers. It is compared
/// with the host's last answer seen in the log (the linter keeps it), so a journey that asked
/// before a slot was enabled shows up. Everything is read again each time the view is drawn:
/// it follows the host's changes live, and works the same in a recording and read-only (it
/// sends nothing).
///
/// Ids, versions and the host's name are the host's text: each is sanitized before it is
/// measured (``Buffer/write(_:at:style:maxWidth:)`` sanitizes again).
struct CapabilityView: OverlayView {
    /// The first line shown.
    var offset = 0

    /// The frame's title.
    static let title = "Capabilities and capability.query, live"

    /// The capabilities `live`'s host reports in `capability.query` now, by BridgeCore's rules.
    static func capabilities(_ live: LiveState) -> [String: BridgeCapabilityInfo] {
        CapabilityQueryAnswer.capabilities(
            slots: live.slots.map {
                CapabilityQueryAnswer.Slot(capabilityId: $0.capabilityId, version: $0.version, supported: $0.supported, permissionState: $0.permissionState)
            },
            customCapabilities: live.customCapabilities.map { CapabilityQueryAnswer.Custom(id: $0.id, version: $0.version) })
    }

    /// The `data` of the `capability.query` answer the host would send now, as sorted compact
    /// JSON, or `nil` before the first snapshot (no host version yet).
    static func answerJSON(_ live: LiveState) -> Data? {
        guard let host = live.host else { return nil }
        let data = CapabilityQueryAnswer.data(environment: host.environment, hostVersion: host.hostVersion, capabilities: capabilities(live))
        return try? JSONEncoding.encode(JSONValue.object(data))
    }

    /// Every line of the view, for a width of `width` columns.
    static func lines(context: OverlayContext, width: Int) -> [[Span]] {
        let live = context.live
        guard let host = live.host else {
            return [[Span("no host yet", Theme.paneTitle)], [Span("the host's slots and capabilities show here once attached", Theme.dim)]]
        }
        var lines: [[Span]] = []
        func add(_ spans: [Span]) { lines += DialogFrame.wrap(spans, width: width) }
        // One slot or capability: indented by two, its continuation lines by four.
        func item(_ spans: [Span]) { lines += DialogFrame.wrap(spans, width: width - 2, indent: 2).map { [Span("  ", .plain)] + $0 } }
        func safe(_ text: String) -> String { Sanitizer.sanitize(text) }

        add([Span("Typed capture slots", Theme.paneTitle), Span("  (a request's action goes to its slot)", Theme.dim)])
        if live.slots.isEmpty { item([Span("none reported", Theme.dim)]) }
        for slot in live.slots {
            let shadows = live.customCapabilities.filter { $0.id == slot.capabilityId }.map(\.id)
            var spans = [
                Span("\(slot.kind.rawValue)  ", Theme.paneTitle), Span(safe(slot.capabilityId), .plain),
                Span("  v\(safe(slot.version))  ", Theme.dim),
                Span(slot.enabled ? "enabled" : "disabled", slot.enabled ? .plain : Theme.warning), Span(" · ", Theme.dim),
                Span(slot.hasHandler ? "handler set" : "no handler", slot.hasHandler ? .plain : Theme.warning), Span(" · ", Theme.dim),
                Span("permission \(slot.permissionState.rawValue)", slot.permissionState == .granted ? .plain : Theme.warning),
                Span(" → ", Theme.dim), Span(slot.supported ? "supported" : "unsupported", slot.supported ? Theme.success : Theme.danger),
            ]
            if !shadows.isEmpty {
                spans.append(Span("; shadows the custom capability \(shadows.map(safe).joined(separator: ", ")) in the answer", Theme.warning))
            }
            item(spans)
        }
        lines.append([])
        add([Span("Custom capabilities", Theme.paneTitle), Span("  (a request whose action is the id goes to its handler)", Theme.dim)])
        if live.customCapabilities.isEmpty { item([Span("none registered", Theme.dim)]) }
        for capability in live.customCapabilities {
            var spans = [
                Span(safe(capability.id), .plain), Span("  v\(safe(capability.version))  ", Theme.dim),
                Span(capability.hasHandler ? "handler set" : "declared, no handler: its requests wait in pending", capability.hasHandler ? .plain : Theme.warning),
            ]
            if capability.shadowedBySlot {
                let slot = live.slots.first { $0.capabilityId == capability.id }.map { "the \($0.kind.rawValue) slot" } ?? "a typed slot"
                spans.append(Span(" · shadowed by \(slot): the answer reports the slot's \(safe(capability.id))", Theme.warning))
            } else {
                spans += [Span(" → ", Theme.dim), Span("supported", Theme.success)]
            }
            item(spans)
        }
        lines.append([])
        add([Span("capability.query would answer now", Theme.paneTitle), Span(" (data of the success response)", Theme.dim)])
        if let json = answerJSON(live) {
            lines += PrettyJSON.format(json).lines.map { [Span("  ", .plain)] + $0 }
        }
        add([Span(comparison(live), Theme.dim)])
        var note = "Worked out by BridgeCore's rules from the slots and capabilities \(safe(host.name)) reports, as BridgeHost(hostVersion:) answers; a host made with a fixed BridgeConfiguration, or with its own capability.query handler, answers otherwise."
        if host.inspectionPath == HostFeature.publicAPIPath {
            note += " Seen through GBGBridge's public API: GBG's GBGBridge builds its own answer by the same documented rules."
        }
        add([Span(note, Theme.dim)])
        return lines
    }

    /// How the answer now compares with the host's last `capability.query` answer in the log.
    static func comparison(_ live: LiveState) -> String {
        guard let reported = live.linter.reportedCapabilities else {
            return "The journey has not asked capability.query while this inspector watched."
        }
        let now = capabilities(live).mapValues(\.supported)
        guard now != reported else { return "The host's last answer in the log reported the same." }
        var changes: [String] = []
        for id in Set(now.keys).union(reported.keys).sorted() where now[id] != reported[id] {
            func said(_ supported: Bool?) -> String { supported.map { $0 ? "supported" : "unsupported" } ?? "not reported" }
            changes.append("\(Sanitizer.sanitize(id)) \(said(reported[id])) then, \(said(now[id])) now")
        }
        return "Differs from the host's last answer in the log: " + changes.joined(separator: "; ") + "."
    }

    /// Lines shown at once, for a screen of the context's size.
    static func page(context: OverlayContext) -> Int { max(1, context.size.height - 4) }

    var footerKeys: [(key: String, label: String)] { [("Esc", "back"), ("j/k", "scroll")] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"), .char("v"): return .close
        default:
            let count = Self.lines(context: context, width: max(1, context.size.width - 2)).count
            guard let next = DialogFrame.scroll(offset, key: key, count: count, page: Self.page(context: context)) else { return .unbound(key) }
            offset = next
            return .none
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let lines = Self.lines(context: context, width: max(1, area.width - 2))
        let shown = max(0, area.height - 2)
        let first = min(offset, max(0, lines.count - shown))
        let more = lines.count > shown ? "  (j/k, \(first + 1)-\(min(lines.count, first + shown))/\(lines.count))" : ""
        let inner = DialogFrame.full(&buffer, area: area, title: Self.title + more)
        DialogFrame.drawLines(lines, first: first, into: &buffer, rect: inner)
    }
}
