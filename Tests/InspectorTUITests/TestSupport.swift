import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import TestSupport

/// Frames, states and models for the inspector's tests (traffic records from the shared
/// ``TrafficFixture``). Every time is relative to ``t0`` and every clock is shown in UTC, so
/// screens are the same on every machine.
typealias Fixture = TrafficFixture

extension TrafficFixture {
    /// 2023-11-14 22:13:20.000 UTC.
    static let t0: Double = 1_700_000_000_000
    static let socketPath = "/tmp/bridge-inspector-501/demo.sock"

    static let host = WireHostInfo(name: "demo-app", pid: 4242, hostVersion: "2.1.0", environment: "ios", startedAt: t0 - 60_000)
    static let restartedHost = WireHostInfo(name: "demo-app", pid: 5151, hostVersion: "2.1.0", environment: "ios", startedAt: t0 + 5_000)

    static func pending(_ id: String, _ action: String, since: Double) -> WirePending {
        WirePending(correlationId: id, action: action, since: since, message: message(id, .request, action, at: since))
    }

    static func slot(
        _ kind: CaptureCapability.Kind, active: String? = nil, since: Double? = nil, hasHandler: Bool = true, enabled: Bool = true,
        permission: PermissionState = .granted
    ) -> WireSlot {
        WireSlot(
            kind: kind, capabilityId: kind.capabilityId, action: kind.action, version: "1.0", hasHandler: hasHandler, enabled: enabled,
            supported: hasHandler && enabled, permissionState: permission, activeRequest: active,
            activeAction: active == nil ? nil : kind.action, activeSince: active == nil ? nil : since)
    }

    static func state(
        host: WireHostInfo = Fixture.host, messages: [WireTraffic] = [], malformed: [WireMalformed] = [],
        pending: [WirePending] = [], slots: [WireSlot]? = nil, lastError: WireError? = nil, errorHistory: [WireError] = []
    ) -> WireState {
        WireState(
            host: host, journeyAttached: true, lastError: lastError, errorHistory: errorHistory, messages: messages,
            malformed: malformed, pending: pending, slots: slots ?? [slot(.document), slot(.selfie, hasHandler: false)],
            customCapabilities: [], counts: WireCounts(received: messages.filter { $0.direction == .received }.count))
    }

    static let decodeError = "Failed to decode message: missing required field 'payload.action'"

    /// A journey in progress, as of ``t0``:
    ///
    /// - seq 1 host.ready; 2/3 a capability query answered in 42 ms; 4 a document capture
    ///   holding the document slot; 5 an `nfc.read` nobody handles (pending); 6 a second
    ///   capability query nobody answered (pending, 5 s timeout); 7 a hand-made `host.ping`;
    ///   8/9 an upload refused with INVALID_REQUEST after 120 ms; 10 malformed input that set
    ///   lastError (seq 11). An older lastError ("WebView not attached") has no cause.
    static func journeyState(host: WireHostInfo = Fixture.host) -> WireState {
        let messages = [
            hostEvent(seq: 1, id: "ios-event-3f2a9c1d-0000-4000-8000-000000000001", name: "host.ready", at: t0 - 10_000,
                      data: ["timestamp": .number(t0 - 10_000), "version": "2.1.0"]),
            request(seq: 2, id: "cap-1", action: "capability.query", at: t0 - 9_000),
            response(seq: 3, id: "cap-1", action: "capability.query", at: t0 - 8_958, data: ["capabilities": [:], "environment": "ios", "hostVersion": "2.1.0"]),
            request(seq: 4, id: "doc-7", action: "camera.document.capture", at: t0 - 6_000, data: ["side": "front"]),
            request(seq: 5, id: "nfc-1", action: "nfc.read", at: t0 - 4_000),
            request(seq: 6, id: "cap-2", action: "capability.query", at: t0 - 3_000),
            hostEvent(seq: 7, id: "ios-event-abcdef12-0000-4000-8000-000000000002", name: "host.ping", at: t0 - 2_000,
                      data: ["timestamp": .number(t0 - 2_000)], origin: .inspector),
            request(seq: 8, id: "up-1", action: "document.upload", at: t0 - 1_500),
            response(seq: 9, id: "up-1", action: "document.upload", at: t0 - 1_380, status: .error,
                     error: BridgeErrorCode.invalidRequest.payload()),
        ]
        let malformed = [WireMalformed(seq: 10, time: t0 - 1_000, raw: "{\"version\":\"1.0\"}", bytes: 17, reason: "missing required field 'payload.action'")]
        let older = WireError(seq: 0, time: t0 - 20_000, text: "WebView not attached", cause: nil)
        let last = WireError(seq: 11, time: t0 - 1_000, text: decodeError, cause: 10)
        return state(
            host: host, messages: messages, malformed: malformed,
            pending: [pending("nfc-1", "nfc.read", since: t0 - 4_000), pending("cap-2", "capability.query", since: t0 - 3_000)],
            slots: [slot(.document, active: "doc-7", since: t0 - 6_000), slot(.selfie, hasHandler: false, permission: .notDetermined)],
            lastError: last, errorHistory: [older, last])
    }

    static func journeySnapshot(host: WireHostInfo = Fixture.host) -> AgentFrame {
        .snapshot(seq: 11, state: journeyState(host: host))
    }

    /// An empty host (no traffic yet).
    static func emptySnapshot(seq: Int = 0, host: WireHostInfo = Fixture.host, slots: [WireSlot]? = nil) -> AgentFrame {
        .snapshot(seq: seq, state: state(host: host, slots: slots))
    }
}

/// A model of `width`×`height` at ``Fixture/t0`` with UTC clocks.
func makeModel(width: Int = 120, height: Int = 40, now: Double = Fixture.t0) -> InspectorModel {
    var model = InspectorModel(size: Size(width: width, height: height), socketPath: Fixture.socketPath, now: now)
    model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
    return model
}

/// A model showing ``Fixture/journeySnapshot(host:)``.
func journeyModel(width: Int = 120, height: Int = 40) -> InspectorModel {
    var model = makeModel(width: width, height: height)
    model.handle(.frame(Fixture.journeySnapshot()))
    return model
}

extension InspectorModel {
    /// The screen as text lines.
    var screen: [String] { render().lines }
    /// The screen as one string.
    var screenText: String { render().rendered() }

    /// Presses keys in order; returns the effects of the last one.
    @discardableResult
    mutating func press(_ keys: Key...) -> [InspectorEffect] {
        var effects: [InspectorEffect] = []
        for key in keys { effects = handle(.key(key)) }
        return effects
    }

    /// Types text one character at a time; returns all effects.
    @discardableResult
    mutating func type(_ text: String) -> [InspectorEffect] {
        var effects: [InspectorEffect] = []
        for character in text { effects += handle(.key(.char(character))) }
        return effects
    }

    /// Feeds an event frame.
    mutating func feed(_ seq: Int, _ event: WireEvent) {
        handle(.frame(.event(seq: seq, event: event)))
    }

    /// The topmost overlay.
    var topOverlay: (any OverlayView)? { overlays.last }
}

extension Array where Element == String {
    /// The first line containing `text`, or nil.
    func line(containing text: String) -> String? { first { $0.contains(text) } }
    /// The index of the first line containing `text`, or nil.
    func index(containing text: String) -> Int? { firstIndex { $0.contains(text) } }
    /// How many lines contain `text`.
    func count(containing text: String) -> Int { filter { $0.contains(text) }.count }
}

/// Whether a scalar must never be in a cell: C0, DEL, C1, bidi controls, line/paragraph separators.
func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    switch value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
    default: return false
    }
}

/// Every cell of `buffer` holding a forbidden scalar, as "x,y U+XXXX".
func forbiddenCells(_ buffer: Buffer) -> [String] {
    var found: [String] = []
    for y in 0..<buffer.height {
        for x in 0..<buffer.width {
            guard let cell = buffer.cell(at: Point(x: x, y: y)) else { continue }
            for scalar in cell.text.unicodeScalars where isForbidden(scalar) {
                found.append("\(x),\(y) U+\(String(scalar.value, radix: 16, uppercase: true))")
            }
        }
    }
    return found
}

/// The display column at which `needle` starts in row `y`, counting cells (continuations included).
func column(of needle: String, inRow y: Int, of buffer: Buffer) -> Int? {
    var texts: [(x: Int, text: String)] = []
    for x in 0..<buffer.width {
        guard let cell = buffer.cell(at: Point(x: x, y: y)), !cell.isContinuation else { continue }
        texts.append((x, cell.text))
    }
    let joined = texts.map(\.text)
    let needleCharacters = needle.map { String($0) }
    guard needleCharacters.count <= joined.count else { return nil }
    for start in 0...(joined.count - needleCharacters.count) where Array(joined[start..<(start + needleCharacters.count)]) == needleCharacters {
        return texts[start].x
    }
    return nil
}

/// The row of `buffer` whose text contains `text`.
func row(containing text: String, in buffer: Buffer) -> Int? {
    buffer.lines.firstIndex { $0.contains(text) }
}

/// The text inside `rect` of `buffer`, one string per row, trailing spaces removed.
func text(in rect: Rect, of buffer: Buffer) -> [String] {
    (rect.y..<rect.maxY).map { y in
        var line = ""
        for x in rect.x..<rect.maxX {
            if let cell = buffer.cell(at: Point(x: x, y: y)), !cell.isContinuation { line += cell.text }
        }
        while line.unicodeScalars.last == " " { line.unicodeScalars.removeLast() }
        return line
    }
}

extension InspectorModel {
    /// The rows inside the Messages box.
    var messageLines: [String] { text(in: layout.messages.inset(1), of: render()) }
    /// The rows inside the Pending box.
    var pendingLines: [String] { text(in: layout.pending.inset(1), of: render()) }
    /// The rows inside the Slots box.
    var slotLines: [String] { text(in: layout.slots.inset(1), of: render()) }
    /// The title row of the Messages box.
    var messagesTitle: String { screen[layout.messages.y] }
    /// The footer row.
    var footer: String { screen[size.height - 1] }
    /// The notice shown above the footer, whole: the rows it was wrapped over (those drawn in
    /// the footer row's colours, from the bottom up), trimmed and joined with spaces; empty
    /// while no notice shows.
    var notice: String {
        guard flash != nil else { return "" }
        let buffer = render()
        let style = buffer.cell(at: Point(x: 0, y: size.height - 1))?.style
        var rows: [String] = []
        for y in stride(from: size.height - 1, to: 0, by: -1) where buffer.cell(at: Point(x: 0, y: y))?.style == style {
            rows.insert(buffer.lines[y].trimmingCharacters(in: .whitespaces), at: 0)
            if buffer.cell(at: Point(x: 0, y: y - 1))?.style != style { break }
        }
        return rows.joined(separator: " ")
    }
}
