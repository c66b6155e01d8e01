import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector snapshot`: the host's current state, as text or JSON.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Print the host's current state: pending requests, slots, lastError.",
        discussion: """
            Prints who the host is, its lastError, its pending requests (oldest first, with their \
            ages), its capture slots and custom capabilities, and the size of its message log. \
            The log itself is printed by `bridge-inspector tail`.

            --json prints the agent's snapshot state as one JSON object with sorted keys: the \
            `state` object of the inspector protocol's snapshot frame (docs/inspector-protocol.md, \
            section 4.1), for jq and other programs. Each message in it (the log's and the pending \
            requests') is exactly as it crossed the bridge (big integers digit for digit, its own \
            key order).

            Examples:
              bridge-inspector snapshot
              bridge-inspector snapshot --json | jq -r '.pending[].correlationId'
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print the state as JSON (the protocol's snapshot state, sorted keys).")
    var json = false

    @Flag(help: "With --json: indent the JSON for reading.")
    var pretty = false

    func run() throws {
        try Script.run {
            if pretty, !json { throw ScriptError.usage("--pretty applies only with --json") }
            let session = try selection.session(subscribe: false, client: "bridge-inspector snapshot")
            defer { session.close() }
            _ = try session.perform(.snapshot, hint: nil)
            let (_, state) = try session.firstSnapshot()
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(
                    state, exact: [(["messages"], state.messages.map(\.messageJSON)), (["pending"], state.pending.map(\.messageJSON))], pretty: pretty))
            } else {
                StandardStreams.printOut(SnapshotText(state: state, socketPath: session.socketPath).render())
            }
        }
    }
}

/// The readable form of a snapshot.
struct SnapshotText {
    var state: WireState
    var socketPath: String
    var now = Date().timeIntervalSince1970 * 1000
    var timeFormat = TimeFormat()

    func render() -> String {
        let safe = ScriptOutput.safe
        let host = state.host
        var lines: [String] = []
        lines.append("host       \(safe(host.name)) (pid \(host.pid)), version \(safe(host.hostVersion)), environment \(safe(host.environment))")
        lines.append("since      \(timeFormat.clock(host.startedAt)) (up \(TimeFormat.duration(ms: now - host.startedAt)))")
        lines.append("socket     \(safe(socketPath))")
        if host.inspectionPath == HostFeature.publicAPIPath {
            lines.append("seen via   GBGBridge's public API (docs/real-apps.md)")
            for (feature, reason) in (host.unsupported ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append("  no \(safe(feature)): \(safe(reason))")
            }
        }
        lines.append("journey    \(state.journeyAttached ? "attached" : "not attached")")
        if let error = state.lastError, let text = error.text {
            lines.append("lastError  \(safe(text))  (at \(timeFormat.clock(error.time))\(error.cause.map { ", caused by seq \($0)" } ?? ""))")
        } else {
            lines.append("lastError  none")
        }
        let errors = state.errorHistory.filter { $0.text != nil }.count
        lines.append("errors     \(errors) in the recent history")
        let counts = state.counts
        lines.append("traffic    \(counts.received) received, \(counts.sent) sent, \(counts.malformed) malformed; \(state.messages.count) messages in the log\(counts.evicted > 0 ? " (\(counts.evicted) older ones evicted)" : "")")
        if let unread = counts.unreadSentReports, unread > 0 {
            // The page's text: made safe like every other untrusted string here.
            let last = state.lastUnreadSentReport.map { ", the last at \(timeFormat.clock($0.time)): \(safe($0.reason))" } ?? ""
            lines.append("unread     \(unread) page report\(unread == 1 ? "" : "s") of what the host sent could not be read\(last)")
        }
        lines.append("")
        lines.append("pending requests: \(state.pending.count)\(state.pending.isEmpty ? "" : " (answer with `bridge-inspector respond <correlation-id>`)")")
        if !state.pending.isEmpty {
            let rows = state.pending.map { [TimeFormat.duration(ms: now - $0.since), safe($0.correlationId), safe($0.action)] }
            lines += table(header: ["AGE", "CORRELATION ID", "ACTION"], rows: rows).map { "  " + $0 }
        }
        lines.append("")
        lines.append("capture slots:")
        let slotRows = state.slots.map { slot -> [String] in
            var busy = "idle"
            if let active = slot.activeRequest {
                busy = "BUSY with \(safe(active))" + (slot.activeSince.map { " for \(TimeFormat.duration(ms: now - $0))" } ?? "")
            }
            let handler = slot.hasHandler ? "handler" : "no handler"
            return [
                slot.kind.rawValue, busy, slot.enabled ? "enabled" : "disabled", handler,
                slot.supported ? "supported" : "unsupported", "permission \(slot.permissionState.rawValue)",
            ]
        }
        lines += table(header: nil, rows: slotRows).map { "  " + $0 }
        lines.append("")
        lines.append("custom capabilities: \(state.customCapabilities.count)")
        let capabilityRows = state.customCapabilities.map { capability -> [String] in
            [safe(capability.id), safe(capability.version), capability.hasHandler ? "handler" : "no handler (requests wait in pending)", capability.shadowedBySlot ? "shadowed by a slot" : ""]
        }
        lines += table(header: nil, rows: capabilityRows).map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// Left-aligned columns separated by two spaces.
    private func table(header: [String]?, rows: [[String]]) -> [String] {
        let all = (header.map { [$0] } ?? []) + rows
        guard let columns = all.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in all { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return all.map { row in
            row.enumerated().map { index, cell in index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
