import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI
import TerminalUI

/// The inspector's state and renderer with a long log.
struct TUIResult {
    var messages: Int
    /// Frames per second into the model: each agent line decoded (`AgentFrame.decode(bytes:)`, as
    /// the client's connection decodes the framer's line) and taken through `handle(.frame(...))`,
    /// as the inspector's loop does.
    var ingestMessagesPerSecond: Double
    /// Median `render()` time with the cursor on the newest row (follow mode).
    var frameMsAtEnd: Double
    /// Median `render()` time with the cursor in the middle of the log.
    var frameMsMiddle: Double
    /// Median `render()` time with a filter active.
    var frameMsFiltered: Double
    /// Median `render()` time with the doctor view (`D`) open: the whole checklist examined
    /// again over the long log, as each frame does.
    var frameMsDoctor: Double
    /// Median `render()` time with the statistics view (`S`) open: it counted the log when it
    /// opened and follows only the rows that arrive since (issue 30), so a frame draws the table.
    var frameMsStats: Double
    /// Resident bytes per message (after `malloc_trim`) beyond the message's own JSON bytes.
    var bytesPerMessageBeyondJSON: Double
    /// The messages' own JSON bytes per message (what is subtracted).
    var jsonBytesPerMessage: Double
    /// Resident-set growth per message, including the JSON.
    var rssBytesPerMessage: Double
    /// Filter expression -> median milliseconds to apply it through the `f` prompt.
    var filterMs: [(filter: String, ms: Double, rows: Int)]
    /// Milliseconds to clear a filter (Esc): every row back.
    var clearFilterMs: Double
    /// Keys while traffic streams in: each cycle decodes and applies one loop wake's worth of
    /// agent frames, then handles a key and renders. A key pressed while a batch arrives is
    /// drawn at most one cycle later, so the cycle's p50 and p99 bound its latency.
    var keyUnderLoad: KeyUnderLoad
    /// Traffic frames per second through the client's decoding: `AgentFrame.decode(bytes:)` of each
    /// line as it arrives from the agent (the one parse, keeping the message's bytes), then
    /// `LiveState.apply`.
    var frameDecodePerSecond: Double
    /// CPU time of the ingest (the thread's own, not waiting for a core), per frame.
    var ingestCPUMicrosecondsPerFrame: Double
    /// CPU time of the client's decoding (``frameDecodePerSecond``), per frame.
    var frameDecodeCPUMicrosecondsPerFrame: Double
}

/// ``TUIResult/keyUnderLoad``.
struct KeyUnderLoad {
    /// Messages per second streaming in.
    var messagesPerSecond: Int
    /// The inspector's loop wakes at least every 100 ms, so each cycle takes 1/10 s of traffic.
    var framesPerCycle: Int
    var cycles: Int
    var p50Ms: Double
    var p99Ms: Double
}

enum TUIBench {
    static let size = Size(width: 120, height: 40)
    /// The filters timed over the log, with the key each figure has in the JSON.
    static let filterExpressions = [
        ("type:request", "type"), ("device", "text"), ("action:journey.*", "glob"), ("!dir:in", "negated"),
        ("body:selfie", "body"),
    ]
    static let startTime: Double = 1_732_240_000_000

    /// Loads `count` traffic events into a fresh model and measures it.
    static func run(count: Int, renders: Int, filterRuns: Int, keyCycles: Int) throws -> TUIResult {
        let templates = try Templates()
        let rssBefore = MemoryUsage.settledResidentBytes()

        var model = InspectorModel(size: size, socketPath: "/tmp/bench.sock", now: startTime)
        model.handle(.frame(try snapshotFrame()))
        // The lines as the agent writes them, made a batch at a time outside the clock; the
        // clock runs while the inspector decodes each one (`AgentFrame.decode(bytes:)`) and the model
        // takes it, as the inspector's loop does.
        var ingestNanoseconds: UInt64 = 0
        var ingestCPUNanoseconds: UInt64 = 0
        var lines = IngestLines(templates: templates)
        var batch: [[UInt8]] = []
        batch.reserveCapacity(ingestBatch)
        while lines.seq <= count {
            batch.removeAll(keepingCapacity: true)
            try lines.append(ingestBatch, upTo: count, to: &batch)
            let begin = monotonicNanoseconds()
            let cpuBegin = threadCPUNanoseconds()
            for line in batch { model.handle(.frame(try AgentFrame.decode(bytes: line))) }
            ingestCPUNanoseconds += threadCPUNanoseconds() - cpuBegin
            ingestNanoseconds += monotonicNanoseconds() - begin
        }
        batch = []
        let ingestSeconds = Double(ingestNanoseconds) / 1e9
        model.handle(.tick(startTime + Double(count) + 1000))

        let rssAfter = MemoryUsage.settledResidentBytes()
        let jsonBytes = model.live.log.reduce(0) { $0 + $1.json.count }
        let logCount = model.live.log.count

        let atEnd = renderMedian(model, renders)

        // To the middle through the keys a person would press.
        var middle = model
        middle.handle(.key(.char("g")))
        while middle.cursor < middle.visible.count / 2 { middle.handle(.key(.pageDown)) }
        let inMiddle = renderMedian(middle, renders)

        var filters: [(String, Double, Int)] = []
        var clears: [Double] = []
        var filtering = model
        for (expression, _) in filterExpressions {
            var times: [Double] = []
            var rows = 0
            for _ in 0..<max(1, filterRuns) {
                filtering.handle(.key(.char("f")))
                for character in expression { filtering.handle(.key(.char(character))) }
                let begin = monotonicNanoseconds()
                filtering.handle(.key(.enter))
                times.append(milliseconds(from: begin, to: monotonicNanoseconds()))
                rows = filtering.visible.count
                let clearBegin = monotonicNanoseconds()
                filtering.handle(.key(.escape))
                clears.append(milliseconds(from: clearBegin, to: monotonicNanoseconds()))
            }
            filters.append((expression, median(times), rows))
        }
        // A model with the request filter applied, for the render figure.
        var filtered = model
        filtered.handle(.key(.char("f")))
        for character in "type:request" { filtered.handle(.key(.char(character))) }
        filtered.handle(.key(.enter))
        let withFilter = renderMedian(filtered, renders)
        // The views that examine the whole state each time they are drawn.
        var doctor = model
        doctor.handle(.key(.char("D")))
        let withDoctor = renderMedian(doctor, renders)
        var stats = model
        stats.handle(.key(.char("S")))
        let withStats = renderMedian(stats, renders)

        let keyUnderLoad = try measureKeyUnderLoad(model, templates: templates, messagesPerSecond: 10_000, cycles: keyCycles, firstSeq: lines.seq)
        let frameDecode = try measureFrameDecode(templates: templates, frames: min(count, 100_000))

        return TUIResult(
            messages: logCount, ingestMessagesPerSecond: Double(logCount) / ingestSeconds, frameMsAtEnd: atEnd,
            frameMsMiddle: inMiddle, frameMsFiltered: withFilter, frameMsDoctor: withDoctor, frameMsStats: withStats,
            bytesPerMessageBeyondJSON: Double(rssAfter - rssBefore - jsonBytes) / Double(max(1, logCount)),
            jsonBytesPerMessage: Double(jsonBytes) / Double(max(1, logCount)),
            rssBytesPerMessage: Double(rssAfter - rssBefore) / Double(max(1, logCount)),
            filterMs: filters, clearFilterMs: median(clears), keyUnderLoad: keyUnderLoad, frameDecodePerSecond: frameDecode.perSecond,
            ingestCPUMicrosecondsPerFrame: Double(ingestCPUNanoseconds) / 1000 / Double(max(1, logCount)),
            frameDecodeCPUMicrosecondsPerFrame: frameDecode.cpuMicrosecondsPerFrame)
    }

    /// Traffic frames per second decoded from their lines (``AgentFrame/decode(bytes:)``) and
    /// applied to a client's state (``LiveState/apply(_:json:at:)``); the lines are made before
    /// the clock starts.
    static func measureFrameDecode(templates: Templates, frames: Int) throws -> (perSecond: Double, cpuMicrosecondsPerFrame: Double) {
        let lines = try trafficLines(templates: templates, from: 1, count: max(1, frames))
        var state = LiveState()
        let begin = monotonicNanoseconds()
        let cpuBegin = threadCPUNanoseconds()
        try decodeAndApply(lines[...], to: &state)
        let cpu = threadCPUNanoseconds() - cpuBegin
        let elapsed = seconds(from: begin, to: monotonicNanoseconds())
        precondition(state.log.count == lines.count)
        return (Double(lines.count) / elapsed, Double(cpu) / 1000 / Double(lines.count))
    }

    /// What a client does with each traffic line the agent writes: decode it
    /// (``AgentFrame/decode(bytes:)``) and apply it to its state (``LiveState/apply(_:json:at:)``).
    static func decodeAndApply(_ lines: ArraySlice<[UInt8]>, to state: inout LiveState) throws {
        for line in lines { state.apply(try AgentFrame.decode(bytes: line), at: startTime) }
    }

    /// The lines of the ingest figure, as the agent writes them for the workload: each message's
    /// `traffic` event, and after each request the `traffic` event of the host's response, with
    /// sequence numbers from 1.
    struct IngestLines {
        let templates: Templates
        /// The sequence number of the next line.
        private(set) var seq = 1
        private var index = 0
        private let encoder = JSONEncoding.compact

        init(templates: Templates) { self.templates = templates }

        /// Appends about `batch` lines (a request's response is never split from it), but none
        /// after sequence number `last`, to `lines`.
        mutating func append(_ batch: Int = .max, upTo last: Int, to lines: inout [[UInt8]]) throws {
            var appended = 0
            while seq <= last, appended < batch {
                appended += 1
                let traffic = templates.traffic(workloadIndex: index, seq: seq, time: startTime + Double(seq))
                lines.append(try frameLine(traffic, encoder: encoder))
                seq += 1
                if Workload.isRequest(index), seq <= last {
                    let response = templates.response(workloadIndex: index, seq: seq, time: startTime + Double(seq))
                    lines.append(try frameLine(response, encoder: encoder))
                    seq += 1
                    appended += 1
                }
                index += 1
            }
        }
    }

    /// `count` traffic event lines as the agent writes them, sequence numbers from `first`.
    static func trafficLines(templates: Templates, from first: Int, count: Int) throws -> [[UInt8]] {
        let encoder = JSONEncoding.compact
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            let seq = first + index
            lines.append(try frameLine(templates.traffic(workloadIndex: index, seq: seq, time: startTime + Double(seq)), encoder: encoder))
        }
        return lines
    }

    /// Frame lines made per batch of the ingest figure (a batch is made before the clock starts).
    static let ingestBatch = 10_000

    /// The `traffic` event line the agent writes for `traffic` (without its newline), as the
    /// client's framer hands it over: bytes, decoded with ``AgentFrame/decode(bytes:)``.
    static func frameLine(_ traffic: WireTraffic, encoder: JSONEncoder) throws -> [UInt8] {
        var line = Array(#"{"kind":"event","seq":\#(traffic.seq),"event":{"type":"traffic","record":"#.utf8)
        line.append(contentsOf: try encoder.encode(traffic))
        line.append(contentsOf: Array("}}".utf8))
        return line
    }

    /// Streams `messagesPerSecond` into `model` as the inspector's loop gets them (one wake's
    /// worth of frame lines decoded with `AgentFrame.decode(bytes:)`, then applied), pressing a key and
    /// rendering after each batch, as a person moving through the log while it fills.
    static func measureKeyUnderLoad(
        _ start: InspectorModel, templates: Templates, messagesPerSecond: Int, cycles: Int, firstSeq: Int
    ) throws -> KeyUnderLoad {
        var model = start
        let perCycle = messagesPerSecond / 10
        var seq = firstSeq
        var times: [Double] = []
        let keys: [Key] = [.char("k"), .char("k"), .char("j"), .char("G")]
        for cycle in 0..<max(1, cycles) {
            // The bytes as they arrive from the agent (made before the clock starts).
            let lines = try trafficLines(templates: templates, from: seq, count: perCycle)
            seq += perCycle
            let begin = monotonicNanoseconds()
            for line in lines { model.handle(.frame(try AgentFrame.decode(bytes: line))) }
            model.handle(.key(keys[cycle % keys.count]))
            let buffer = model.render()
            times.append(milliseconds(from: begin, to: monotonicNanoseconds()))
            precondition(buffer.width > 0)
        }
        times.sort()
        let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
        return KeyUnderLoad(messagesPerSecond: messagesPerSecond, framesPerCycle: perCycle, cycles: times.count, p50Ms: median(times), p99Ms: p99)
    }

    /// The median of `count` renders of `model`, in milliseconds.
    static func renderMedian(_ model: InspectorModel, _ count: Int) -> Double {
        var times: [Double] = []
        var cells = 0
        for _ in 0..<max(1, count) {
            let begin = monotonicNanoseconds()
            let buffer = model.render()
            times.append(milliseconds(from: begin, to: monotonicNanoseconds()))
            cells &+= buffer.width
        }
        precondition(cells > 0)
        return median(times)
    }

    /// A snapshot of a host with two slots and one custom capability, and an empty log.
    static func snapshotFrame() throws -> AgentFrame {
        func slot(_ kind: String) -> String {
            #"{"kind":"\#(kind)","capabilityId":"camera.\#(kind)","action":"camera.\#(kind).capture","version":"1.0","hasHandler":true,"enabled":true,"supported":true,"permissionState":"granted"}"#
        }
        let text = #"{"kind":"snapshot","seq":0,"state":{"host":{"name":"bench","pid":1,"hostVersion":"1.0.0","environment":"ios","startedAt":\#(startTime)},"#
            + #""journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[],"malformed":[],"pending":[],"#
            + #""slots":[\#(slot("document")),\#(slot("selfie"))],"customCapabilities":[{"id":"device.info","version":"1.0","hasHandler":true,"shadowedBySlot":false}],"#
            + #""counts":{"received":0,"sent":0,"malformed":0,"evicted":0}}}"#
        return try AgentFrame.decode(Data(text.utf8))
    }

    /// The workload's messages, decoded once, stamped with a new id and seq per frame.
    struct Templates {
        var received: [BridgeMessage] = []
        var receivedBytes: [Int] = []
        var response: BridgeMessage
        var responseBytes: Int

        init() throws {
            let codec = BridgeMessageCodec()
            for index in 0..<24 {
                let data = Data(Workload.message(index).utf8)
                received.append(try codec.decode(data).get())
                receivedBytes.append(data.count)
            }
            response = BridgeMessage(
                correlationId: "m-3", type: .response, timestamp: startTime,
                payload: .init(
                    action: Workload.requestAction,
                    data: ["model": "Bench", "os": "Linux", "locale": "en-GB", "screen": "1170x2532"], status: .success))
            responseBytes = try codec.encode(response).count
        }

        func traffic(workloadIndex index: Int, seq: Int, time: Double) -> WireTraffic {
            var message = received[index % received.count]
            message.correlationId = "m-\(index)"
            message.timestamp = time
            return WireTraffic(
                seq: seq, direction: .received, time: time, origin: .journey, bytes: receivedBytes[index % received.count],
                message: message)
        }

        func response(workloadIndex index: Int, seq: Int, time: Double) -> WireTraffic {
            var message = response
            message.correlationId = "m-\(index)"
            message.timestamp = time
            return WireTraffic(seq: seq, direction: .sent, time: time + 1, origin: .host, bytes: responseBytes, message: message)
        }
    }
}
