import BridgeCore
import Foundation
import InspectorProtocol

/// What an inspector holds, written as a recording (the TUI's `w`): a file `open` reads back
/// into the same rows, marks, pending requests, slots, lastError and its history, held messages
/// and breakpoints, without `record` having run.
///
/// An inspector keeps rows, not the frames they came in, so the recording is made of frames as
/// an agent would have sent them: for each run of the host (the log's restart markers split
/// them), a `hello` and one `snapshot` holding that run's rows (each message's bytes as they
/// crossed the bridge), with a ``Recording/HostRestart`` line before each later run. The state
/// (pending, slots, lastError, held, breakpoints, counts) is the one the inspector holds now, in
/// the last snapshot; earlier runs carry only their rows. Markers the inspector drew itself
/// within a run (a gap, a disconnect, a reattach to the same process) are not frames and are
/// not kept. A row's ``LogEntry/marked`` becomes a ``Recording/Mark`` line after the frames.
///
/// ```swift
/// let bytes = state.recording(header: Recording.Header(socket: path, startedAt: now, client: "bridge-inspector (w)"))
/// ```
extension LiveState {
    /// The agent name the saved `hello` frames give.
    public static let savedAgentName = "bridge-inspector (saved from an inspector)"

    /// The recording's bytes: `header`, the frames, then the marks, one line each.
    public func recording(header: Recording.Header) -> [UInt8] {
        var out = header.line
        out.append(0x0A)
        var frame = 0
        var marks: [Recording.Mark] = []
        let runs = recordedRuns()
        for (number, run) in runs.enumerated() {
            let last = number == runs.count - 1
            if let restart = run.restart {
                out += restart.line
                out.append(0x0A)
            }
            out += Self.helloLine(run.host, slots: slots, capabilities: customCapabilities)
            out.append(0x0A)
            frame += 1
            var writer = JSONWriter(capacity: 4096)
            writeSnapshot(of: run, last: last, into: &writer)
            out += writer.bytes
            out.append(0x0A)
            for index in run.rows where log[index].marked { marks.append(Recording.Mark(frame: frame, seq: log[index].seq)) }
            frame += 1
        }
        for mark in marks {
            out += mark.line
            out.append(0x0A)
        }
        return out
    }

    /// Marks the rows `marks` name, once the frame they name has been applied (a mark names a
    /// row by its sequence number in that frame, which a later run of the host reuses); returns
    /// how many named a row that could be marked.
    ///
    /// ```swift
    /// let marksByFrame = Dictionary(grouping: contents.marks, by: \.frame)
    /// for (index, frame) in contents.frames.enumerated() {
    ///     state.apply(frame)
    ///     state.applyMarks(marksByFrame[index] ?? [])
    /// }
    /// ```
    @discardableResult
    public mutating func applyMarks(_ marks: [Recording.Mark]) -> Int {
        var found = 0
        for mark in marks {
            if let row = logIndex(ofSeq: mark.seq), setMarked(true, at: row) != nil { found += 1 }
        }
        return found
    }

    /// One run of the host: its rows (log indexes), who the host was, and the restart line
    /// that comes before it.
    private struct Run {
        var host: WireHostInfo
        var rows: [Int] = []
        var restart: Recording.HostRestart?
    }

    /// The log split into runs of the host at its restart markers, oldest first.
    private func recordedRuns() -> [Run] {
        let current = host ?? WireHostInfo(name: "unknown", pid: 0, hostVersion: "", environment: "", startedAt: 0)
        var runs = [Run(host: current)]
        // Walk back from the newest row: each restart marker closes the run before it.
        for index in log.indices.reversed() {
            let entry = log[index]
            switch entry.kind {
            case .message, .malformed:
                runs[runs.count - 1].rows.append(index)
            case .hostRestarted(let name, let endedPid, let attachedPid):
                let next = runs[runs.count - 1].host
                runs[runs.count - 1].restart = Recording.HostRestart(
                    time: entry.time, host: name, endedPid: endedPid, attachedPid: attachedPid, socket: "")
                var earlier = next
                earlier.pid = endedPid
                earlier.startedAt = next.startedAt - 1
                runs.append(Run(host: earlier))
            case .reattached(hostRestarted: true):
                // A new agent in the same process: reading the next run's snapshot draws this marker again.
                var earlier = runs[runs.count - 1].host
                earlier.startedAt -= 1
                runs.append(Run(host: earlier))
            case .gap, .disconnected, .reattached:
                break
            }
        }
        for index in runs.indices { runs[index].rows.reverse() }
        return runs.reversed()
    }

    private static func helloLine(_ host: WireHostInfo, slots: [WireSlot], capabilities: [WireCapability]) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        writer.key("kind"); writer.string("hello")
        writer.key("protocol"); writer.number(WireProtocol.version)
        writer.key("agent"); writer.string(savedAgentName)
        writer.key("host"); writer.splice(encoded(host))
        writer.key("features"); writer.arrayStart(); writer.arrayEnd()
        writer.key("capabilities"); writer.objectStart()
        writer.key("slots"); writer.splice(encoded(slots))
        writer.key("customCapabilities"); writer.splice(encoded(capabilities))
        writer.objectEnd()
        writer.key("limits"); writer.objectStart()
        writer.key("maxFrameBytes"); writer.number(0)
        writer.key("maxClients"); writer.number(0)
        writer.objectEnd()
        writer.objectEnd()
        return writer.bytes
    }

    /// A snapshot frame of `run`: its rows, and for the last run the state held now.
    private func writeSnapshot(of run: Run, last: Bool, into writer: inout JSONWriter) {
        let rowSeq = run.rows.last.map { log[$0].seq } ?? 0
        writer.objectStart()
        writer.key("kind"); writer.string("snapshot")
        writer.key("seq"); writer.number(last ? max(seq, rowSeq) : rowSeq)
        writer.key("state"); writer.objectStart()
        writer.key("host"); writer.splice(Self.encoded(run.host))
        writer.key("journeyAttached"); writer.bool(last && journeyAttached)
        writer.key("lastError")
        if last, let lastError { writer.splice(Self.encoded(lastError)) } else { writer.null() }
        writer.key("errorHistory"); writer.splice(last ? Self.encoded(errorHistory) : Array("[]".utf8))
        writer.key("messages"); writer.arrayStart()
        for index in run.rows where log[index].kind == .message { writeTraffic(at: index, into: &writer) }
        writer.arrayEnd()
        writer.key("malformed"); writer.arrayStart()
        for index in run.rows where log[index].kind == .malformed { Self.writeMalformed(log[index], into: &writer) }
        writer.arrayEnd()
        writer.key("pending"); writer.arrayStart()
        if last { for request in pending { Self.writePending(request, into: &writer) } }
        writer.arrayEnd()
        writer.key("slots"); writer.splice(Self.encoded(slots))
        writer.key("customCapabilities"); writer.splice(Self.encoded(customCapabilities))
        writer.key("counts"); writer.splice(Self.encoded(last ? counts : WireCounts()))
        if last {
            writer.key("held"); writer.splice(Self.encoded(held))
            writer.key("breakpoints"); writer.splice(Self.encoded(breakpoints))
            if let lastUnreadSentReport { writer.key("lastUnreadSentReport"); writer.splice(Self.encoded(lastUnreadSentReport)) }
        }
        writer.objectEnd()
        writer.objectEnd()
    }

    /// A traffic record for the row at `index`, its message's bytes as the row keeps them.
    private func writeTraffic(at index: Int, into writer: inout JSONWriter) {
        let row = log[index]
        writer.objectStart()
        writer.key("seq"); writer.number(row.seq)
        writer.key("direction"); writer.string((row.direction ?? .received).rawValue)
        writer.key("time"); writer.number(row.time)
        writer.key("origin"); writer.string((row.origin ?? .host).rawValue)
        if let command = row.command { writer.key("command"); writer.string(command) }
        // The row keeps that a rule answered, not the rule's name.
        if row.answeredByRule { writer.key("rule"); writer.string(Self.unnamedRule) }
        if let deliveryError = row.deliveryError { writer.key("deliveryError"); writer.string(deliveryError) }
        if let hold = holdMarks[index] { writer.key("hold"); writer.splice(Self.encoded(hold)) }
        if let original = row.original, Self.isMessage(original) { writer.key("original"); writer.rawJSON(original) }
        writer.key("bytes"); writer.number(row.bytes)
        if let reported = row.reported { writer.key("reported"); writer.string(String(decoding: reported, as: UTF8.self)) }
        if let lost = row.lost { writer.key("lost"); writer.string(lost) }
        writer.key("message"); writer.rawJSON(row.json)
        writer.objectEnd()
    }

    /// The rule name a saved row answered by a reply rule carries (the row does not keep the name).
    public static let unnamedRule = "a reply rule"

    private static func writeMalformed(_ row: LogEntry, into writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("seq"); writer.number(row.seq)
        writer.key("time"); writer.number(row.time)
        writer.key("raw"); writer.string(String(decoding: row.json, as: UTF8.self))
        writer.key("bytes"); writer.number(row.bytes)
        writer.key("reason"); writer.string(row.summary)
        if row.direction == .sent { writer.key("direction"); writer.string("sent") }
        writer.objectEnd()
    }

    private static func writePending(_ request: WirePending, into writer: inout JSONWriter) {
        writer.objectStart()
        writer.key("correlationId"); writer.string(request.correlationId)
        writer.key("action"); writer.string(request.action)
        writer.key("since"); writer.number(request.since)
        if let truncated = request.truncated { writer.key("truncated"); writer.bool(truncated) }
        writer.key("message")
        if let json = request.messageJSON { writer.rawJSON(json) } else { writer.splice(encoded(request.message)) }
        writer.objectEnd()
    }

    /// Whether `json` reads as a bridge message (an edited row's original: kept only if it does,
    /// so one odd row cannot make the whole snapshot unreadable).
    private static func isMessage(_ json: Data) -> Bool {
        guard let value = JSONParser.parse(json) else { return false }
        return BridgeMessage(validating: value) != nil
    }

    /// `value` encoded compactly (the small records a snapshot carries; `null` if it cannot be).
    private static func encoded(_ value: some Encodable) -> [UInt8] {
        (try? JSONEncoding.encode(value)).map(Array.init) ?? Array("null".utf8)
    }
}
