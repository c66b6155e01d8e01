import BridgeCore
import Foundation
import InspectorAgent

/// The agents a ``PublicAPIHost`` reports to, each with its sink: every change the adapter sees
/// is handed to each of them, on the app's main thread.
///
/// Held in an array and handed over where each sink lies: kept in a dictionary by reporting, each
/// hand-off copied the sink out of it (retaining and releasing its four closures) for every
/// change. The order in which sinks hear of one change is not seen by anyone (each agent has its
/// own queue); each sink hears of the changes in the order they are reported.
///
/// ```swift
/// var sinks = ReportingSinks()
/// sinks.add(sink, for: ObjectIdentifier(reporting))
/// sinks.report(.lastError("…", time: now))
/// ```
@MainActor
struct ReportingSinks {
    private var entries: [(id: ObjectIdentifier, sink: InspectionSink)] = []

    /// Whether no agent is reporting.
    var isEmpty: Bool { entries.isEmpty }

    /// Adds `sink` as the one of the reporting `id` (replacing the one it had, if any).
    mutating func add(_ sink: InspectionSink, for id: ObjectIdentifier) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].sink = sink
        } else {
            entries.append((id, sink))
        }
    }

    /// Removes the sink of the reporting `id`.
    mutating func remove(_ id: ObjectIdentifier) {
        entries.removeAll { $0.id == id }
    }

    /// Reports `change` to every sink, caused by the command its agent runs now, if any.
    func report(_ change: BridgeChange) {
        // A copy of the array (one reference): a sink's agent only queues, but nothing done while
        // reporting can then touch the list being walked.
        let entries = self.entries
        for index in entries.indices { entries[index].sink.report(change) }
    }

    /// Reports `change` to every sink, caused by the cause `causes` holds for its reporting (taken
    /// earlier with ``runningCauses()``), or by nobody.
    func report(_ change: BridgeChange, causes: [ObjectIdentifier: InspectionCause]) {
        let entries = self.entries
        for index in entries.indices {
            entries[index].sink.report(change, causedBy: causes.isEmpty ? nil : causes[entries[index].id])
        }
    }

    /// Reports a message GBGBridge received, as a value, to every sink (caused as in
    /// ``report(_:causes:)``): each agent's thread encodes it, so the app's main thread builds no
    /// record and encodes nothing (`InspectionSink.reportReceived(_:at:causedBy:)`).
    func reportReceived(_ message: BridgeMessage, time: Date, causes: [ObjectIdentifier: InspectionCause]) {
        let entries = self.entries
        if causes.isEmpty {
            for index in entries.indices { entries[index].sink.reportReceived(message, at: time, causedBy: nil) }
        } else {
            for index in entries.indices { entries[index].sink.reportReceived(message, at: time, causedBy: causes[entries[index].id]) }
        }
    }

    /// Reports a message the app sent, caused by nobody, as its text (BridgeCore's message JSON
    /// as it stands, at most `InspectionSink.plainSentLimit` bytes) to every sink: the bytes go
    /// straight into each agent's inbox (`InspectionSink.reportSent(json:at:)`).
    func reportSent(json: String, time: Date) {
        let entries = self.entries
        for index in entries.indices { entries[index].sink.reportSent(json: json, at: time) }
    }

    /// The command each agent runs now, by reporting (agents running none are left out).
    func runningCauses() -> [ObjectIdentifier: InspectionCause] {
        var causes: [ObjectIdentifier: InspectionCause] = [:]
        for entry in entries {
            if let cause = entry.sink.runningCommand { causes[entry.id] = cause }
        }
        return causes
    }
}
