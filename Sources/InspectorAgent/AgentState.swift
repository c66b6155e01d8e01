import BridgeCore
import DequeModule
import Foundation
import InspectorProtocol

/// The agent's copy of the host's state, kept on the agent thread from the change stream.
///
/// Every record is encoded to JSON once, when it arrives; events and snapshots then splice those
/// bytes. A message's own JSON is spliced as the host received or sent it, never re-encoded.
/// The log is bounded by ``AgentLimits/maxLogMessages`` and ``AgentLimits/maxLogBytes``.
struct AgentState {
    private(set) var host: WireHostInfo
    private(set) var seq = 0
    private(set) var journeyAttached: Bool
    private let limits: AgentLimits

    private var lastError: [UInt8]?
    private var errorHistory: Deque<[UInt8]> = []
    /// The log's records. A record logged from a traffic event is a slice of that event's frame,
    /// whose bytes it shares with the clients' queues (written once).
    private var messages: Deque<ArraySlice<UInt8>> = []
    private var messageBytes = 0
    private var malformed: Deque<[UInt8]> = []
    private var pending = PendingRecords()
    private var slots: [CaptureCapability.Kind: [UInt8]] = [:]
    private var capabilities: [UInt8] = Array("[]".utf8)
    private var counts = WireCounts()
    /// The message or malformed input that the next `lastError` is attributed to.
    private var lastCauseSeq: Int?
    /// The JSON of the last received message, reused when that very message turns out to be a
    /// pending request (the usual case: it goes to `pendingRequests` as it arrives). Whether it
    /// is that message is the inbox's to say (``AgentInbox/Links``): the agent keeps no message
    /// values of the host's.
    /// Kept only up to ``pendingMessageLimit`` bytes, as a slice of the event frame it was
    /// written in (whose bytes the log and the clients' queues share): no copy is made.
    private var lastReceivedJSON: ArraySlice<UInt8>?
    /// Whether the last received message was larger than ``pendingMessageLimit``: its bytes are
    /// not kept, and a pending record of it is truncated.
    private var lastReceivedTooLarge = false
    /// The sequence number of the traffic record of the last message logged each way: a hold of
    /// that very message (``AgentInbox/Links/isLastLogged``) was logged before it was held (a
    /// request the journey posted to a native host; a message GBGBridge sent, seen through its
    /// public API).
    private var lastLoggedSeq = LastLoggedSeq()
    /// The text of the last plain traffic frame's sequence number and time, which the next one's
    /// mostly repeat or pass by a little.
    private var frameNumbers = TrafficEventFrame.Numbers()
    /// Messages held at breakpoints, oldest first, as their records.
    private var held: [(id: String, json: [UInt8])] = []
    private var heldRecordBytes = 0
    /// For each held message logged before it was held, the seq of its traffic record: the
    /// record an edit marks (`hold` and `delivered`) when it is released edited.
    private var heldRecordSeqs: [String: Int] = [:]
    /// For each held message not logged yet, its JSON as it was held: the `original` of its
    /// traffic record, logged once it is released edited. Kept within ``heldTotalLimit`` in all.
    private var heldOriginals: [String: Data] = [:]
    private var heldOriginalBytes = 0
    /// Requests released edited that the host logs only when it receives them (GBGBridge, seen
    /// through its public API, gets a request after the page lets it go): by correlation id, the
    /// hold and the original, for that traffic record. At most ``maxHeldRecords`` and
    /// ``heldTotalLimit`` bytes, the oldest dropped (a page that went never posts its request).
    private var editedUnlogged: [(correlationId: String, hold: String, original: Data)] = []
    private var editedUnloggedBytes = 0
    /// Every inspector's breakpoints, as clients see them, and the bytes of their JSON.
    private var breakpoints: [WireBreakpoint] = []
    private var breakpointBytes = 0
    /// Every inspector's fault rules, as clients see them, and the bytes of their JSON.
    private var faults: [WireFault] = []
    private var faultBytes = 0
    /// The record of the last report of what the host sent that could not be read.
    private var lastUnreadSentReport: [UInt8]?

    static let historyLimit = 100
    static let malformedTextLimit = 64 * 1024
    /// The most JSON one `malformed` record takes (its `raw` text is cut shorter when escaping
    /// makes it larger), so that 100 of them stay within a known size.
    static let malformedRecordLimit = malformedTextLimit + 4 * 1024
    /// The longest `lastError` text kept in a record; a longer one (it can quote what a journey
    /// sent) is cut, with a note saying how much was left out.
    static let errorTextLimit = 16 * 1024
    /// The most JSON one error record takes.
    static let errorRecordLimit = errorTextLimit + 1024

    init(host: WireHostInfo, snapshot: BridgeSnapshot, limits: AgentLimits) {
        self.host = host
        self.journeyAttached = snapshot.isJourneyAttached
        self.limits = limits
        // The log's room for a full log at the default bound, made once: grown by doubling, the
        // queue's records (32 bytes each) were copied again at every doubling as it filled.
        messages.reserveCapacity(min(limits.maxLogMessages, Self.logCapacityReserved))
        counts.receivedMessages = snapshot.receivedMessages.count
        let codec = BridgeMessageCodec()
        for message in snapshot.receivedMessages {
            guard let json = try? codec.encode(message) else { continue }
            seq += 1
            counts.received += 1
            var writer = JSONWriter(capacity: json.count + 160)
            _ = json.withUnsafeBytes { bytes in
                writeTraffic(
                    seq: seq, TrafficFields(direction: .received, time: snapshot.time), json: bytes, envelope: message,
                    origin: .journey, command: nil, into: &writer)
            }
            appendMessage(writer.bytes[...])
        }
        for request in snapshot.pendingRequests {
            keepPending(request, encodePending(request, isLastReceived: false))
        }
        for slot in snapshot.slots {
            slots[slot.kind] = Self.encode(WireSlot(slot))
        }
        capabilities = Self.encode(snapshot.customCapabilities.map(WireCapability.init))
        for message in snapshot.heldMessages { keepHeld(message.id, encodeHeld(message)) }
        if snapshot.unreadSentReports > 0 { counts.unreadSentReports = snapshot.unreadSentReports }
        if let input = snapshot.lastUnreadSentReport {
            seq += 1
            let json = Self.encodeMalformed(input, seq: seq)
            lastUnreadSentReport = json
            malformed.append(json)
        }
        if let text = snapshot.lastError {
            seq += 1
            let entry = Self.encode(WireError(seq: seq, time: Self.ms(snapshot.time), text: Self.shortened(text), cause: nil))
            lastError = entry
            errorHistory.append(entry)
        }
    }

    // MARK: Applying changes

    /// Applies a plain traffic record handed over as bytes (``TrafficArena/Record``) and returns
    /// its event frame: the frame, and the state, that the whole change would give.
    mutating func apply(_ traffic: TrafficArena.Record) -> [UInt8] {
        let json = traffic.json
        // A received message may be the request an edit released earlier waits for (found by
        // its correlation id, which takes decoding it), and one too large to forward is written
        // without its data: both take the general path.
        guard json.count <= Self.forwardLimit, traffic.direction == .sent || editedUnlogged.isEmpty else {
            return applyInGeneral(traffic)
        }
        seq += 1
        let frame = TrafficEventFrame(seq: seq, direction: traffic.direction, time: Self.ms(traffic.time), json: json, numbers: &frameNumbers)
        noteTraffic(traffic.direction)
        keepLogged(LoggedRanges(record: frame.record, message: frame.message, messageBytes: json.count), of: traffic.direction, in: frame.bytes)
        return frame.bytes
    }

    /// Plain traffic frames written one after another into one array (``write(_:into:)``),
    /// kept by the log and queued for the clients as parts of it once the run ends
    /// (``keep(_:)``): one allocation, and later one free, for a run of frames instead of one
    /// each. A run ends before anything else is applied, at the end of each batch, and when its
    /// array is full (it is never grown while parts of it are kept); it is at most
    /// ``FrameRun/bytesPerArray`` bytes (or one frame). A run that ends with most of its array
    /// unused (one frame of a quiet host's batch) is moved to an array of its own size first
    /// (``FrameRun/trimIfMostlyUnused()``), so what the log and the queues keep alive is at most
    /// twice the bytes they count: without that, each record of a quiet session would hold a
    /// 32 KiB array.
    struct FrameRun {
        /// One frame of the run: where it and its logged parts are in ``bytes``.
        struct Entry {
            var seq: Int
            var frame: Range<Int>
            var logged: LoggedRanges
            var direction: TrafficRecord.Direction
        }

        /// The frames written so far.
        fileprivate(set) var bytes: [UInt8] = []
        fileprivate(set) var entries: [Entry] = []

        /// The size of a run's array (a frame larger than it has an array of its own size).
        static let bytesPerArray = 32 * 1024

        var isEmpty: Bool { entries.isEmpty }

        /// Calls `body` with each frame of the run (a part of its array) and its sequence number,
        /// in order.
        func forEachFrame(_ body: (ArraySlice<UInt8>, Int) -> Void) {
            let all = bytes[...]
            for entry in entries {
                body(all[entry.frame], entry.seq)
            }
        }

        /// Moves the run's frames to an array of their own size when more than half of the
        /// array is unused (the same indices: the entries' ranges stay true), so that the parts
        /// the log and the queues keep hold at most twice their bytes. Call before the run is kept.
        mutating func trimIfMostlyUnused() {
            guard bytes.capacity - bytes.count > bytes.count else { return }
            // Appended into a fresh array, not made by `Array(bytes[...])`, which may hand back
            // the same oversized storage.
            var exact: [UInt8] = []
            exact.reserveCapacity(bytes.count)
            exact.append(contentsOf: bytes)
            bytes = exact
        }

        /// Forgets the run's frames (kept by the log and the queues by now); the next frame
        /// starts a new array.
        mutating func clear() {
            entries.removeAll(keepingCapacity: true)
            bytes = []
        }

        /// Whether the frame of a message of `messageBytes` fits in what is left of the array.
        func fits(messageBytes: Int) -> Bool {
            bytes.capacity - bytes.count >= TrafficEventFrame.capacity(messageBytes: messageBytes)
        }

        /// Starts a new array, with room for at least a frame of `messageBytes` (the last one's is
        /// left to the records and queues that keep parts of it), and for the frames of the rest
        /// of its run of records (`runLeft`) up to ``bytesPerArray``: a batch of a few messages
        /// (a quiet host) gets an array of their size, not 32 KiB for each of its records to keep
        /// alive.
        mutating func startArray(messageBytes: Int, runLeft: TrafficArena.RunLeft) {
            bytes = []
            // A message too large to forward is written by the general path: no room for it.
            let frame = messageBytes <= AgentState.forwardLimit ? TrafficEventFrame.capacity(messageBytes: messageBytes) : 0
            // Each record's bytes in the arena are at least its message's; each frame adds at most
            // the frame of an empty message.
            let rest = runLeft.bytes + runLeft.records * TrafficEventFrame.capacity(messageBytes: 0)
            bytes.reserveCapacity(max(min(Self.bytesPerArray, rest), frame))
        }

        /// ``startArray(messageBytes:runLeft:)`` for a run of unknown length: a whole array.
        mutating func startArray(messageBytes: Int) {
            startArray(messageBytes: messageBytes, runLeft: TrafficArena.RunLeft(bytes: Self.bytesPerArray, records: 0))
        }
    }

    /// Writes the frame of a plain traffic record at the end of `run` and applies it to the
    /// state, as ``apply(_:)-(TrafficArena.Record)`` does, except that the log keeps it only when
    /// the run is kept (``keep(_:)``, before anything else is applied). Returns `false`, having
    /// done nothing, for a record the general path writes (a received message an edit waits
    /// for, one too large to forward): the caller ends the run and applies it alone. The caller
    /// makes room first (``FrameRun/fits(messageBytes:)``).
    mutating func write(_ traffic: TrafficArena.Record, into run: inout FrameRun) -> Bool {
        let json = traffic.json
        guard json.count <= Self.forwardLimit, traffic.direction == .sent || editedUnlogged.isEmpty else { return false }
        seq += 1
        let written = TrafficEventFrame.append(
            seq: seq, direction: traffic.direction, time: Self.ms(traffic.time), json: json, numbers: &frameNumbers, to: &run.bytes)
        noteTraffic(traffic.direction)
        run.entries.append(FrameRun.Entry(
            seq: seq, frame: written.frame, logged: LoggedRanges(record: written.record, message: written.message, messageBytes: json.count),
            direction: traffic.direction))
        return true
    }

    /// The log keeps each record of `run`, in order: the first step of ending a run, before its
    /// frames are queued (``FrameRun/forEachFrame(_:)``) and it is cleared (``FrameRun/clear()``).
    mutating func keep(_ run: FrameRun) {
        let all = run.bytes[...]
        for entry in run.entries {
            keepLogged(entry.logged, of: entry.direction, in: all)
        }
    }

    /// Applies a plain traffic record whose message came in an array of its own (taken from the
    /// batch: ``TrafficArena/takeOwnBuffers()``; `buffer` is left empty) and returns its event
    /// frame, written into that array: the frame, and the state, that
    /// ``apply(_:)-(TrafficArena.Record)`` gives for the same message, without copying the message
    /// again. The log and the clients' queues share the array.
    mutating func apply(_ traffic: TrafficArena.Record, taking buffer: inout [UInt8]) -> ArraySlice<UInt8> {
        var own: [UInt8] = []
        swap(&own, &buffer)
        let messageBytes = TrafficArena.messageRange(inOwnBufferOf: own.count).count
        if messageBytes <= Self.forwardLimit, traffic.direction == .sent || editedUnlogged.isEmpty,
            let frame = TrafficEventFrame.inPlace(&own, seq: seq + 1, direction: traffic.direction, time: Self.ms(traffic.time))
        {
            seq += 1
            noteTraffic(traffic.direction)
            keepLogged(LoggedRanges(record: frame.record, message: frame.message, messageBytes: messageBytes), of: traffic.direction, in: own[...])
            return own[frame.frame]
        }
        // What the general path takes (a received message an edit waits for, one too large to
        // forward), or a head too long for its room: the message is read where it is.
        return own.withUnsafeBytes { bytes in
            let json = UnsafeRawBufferPointer(rebasing: bytes[TrafficArena.messageRange(inOwnBufferOf: bytes.count)])
            return apply(TrafficArena.Record(direction: traffic.direction, time: traffic.time, json: json))[...]
        }
    }

    /// ``apply(_:)-(TrafficArena.Record)`` through the general path, which writes every kind of record (the
    /// frame ``TrafficEventFrame`` writes for the plain ones, byte for byte).
    mutating func applyInGeneral(_ traffic: TrafficArena.Record) -> [UInt8] {
        let json = traffic.json
        seq += 1
        var writer = JSONWriter(capacity: json.count + 256)
        writer.objectStart()
        writer.key("kind"); writer.string("event")
        writer.key("seq"); writer.number(seq)
        writer.key("event"); writer.objectStart()
        let logged = logTraffic(
            TrafficFields(direction: traffic.direction, time: traffic.time), json: json, tag: nil,
            message: { Self.decodeMessage(json) }, into: &writer)
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        keepLogged(logged, of: traffic.direction, in: writer.bytes)
        return writer.bytes
    }

    /// A message the host handed over as bytes, read back (only when a record needs more than
    /// its bytes: its correlation id, for an edit waiting for it).
    private static func decodeMessage(_ json: UnsafeRawBufferPointer) -> BridgeMessage? {
        try? BridgeMessageCodec().decode(Data(json)).get()
    }

    /// Applies one change and returns its event frame (ending in a newline) and, for traffic,
    /// the message JSON (for the reply of the command that caused it). `links` is what the
    /// inbox knows of the change's message (``AgentInbox/Links``).
    mutating func apply(
        _ change: BridgeChange, tag: AgentInbox.CommandTag?, links: AgentInbox.Links = .init()
    ) -> (frame: [UInt8], sent: Data?) {
        seq += 1
        var sent: Data?
        var logged: (ranges: LoggedRanges, direction: TrafficRecord.Direction)?
        var writer = JSONWriter(capacity: 256)
        if case .traffic(let record) = change { writer = JSONWriter(capacity: record.json.count + 256) }
        writer.objectStart()
        writer.key("kind"); writer.string("event")
        writer.key("seq"); writer.number(seq)
        writer.key("event"); writer.objectStart()
        switch change {
        case .traffic(let record):
            let ranges = record.json.withUnsafeBytes { json in
                logTraffic(TrafficFields(record), json: json, tag: tag, message: { record.message }, into: &writer)
            }
            logged = (ranges, record.direction)
            if tag != nil, record.direction == .sent { sent = record.json }
        case .malformed(let input):
            counts.malformed += 1
            // Text an inspector injected is the inspector's, as an injected message is.
            let injected = input.direction != .sent && Self.origin(of: .received, tag: tag) == .inspector
            let json = Self.encodeMalformed(input, seq: seq, injectedBy: injected ? tag?.command : nil)
            if input.direction == .sent {
                counts.unreadSentReports = (counts.unreadSentReports ?? 0) + 1
                lastUnreadSentReport = json
            }
            malformed.append(json)
            if malformed.count > Self.historyLimit { malformed.removeFirst() }
            lastCauseSeq = seq
            writer.key("type"); writer.string("malformed")
            writer.key("record"); writer.splice(json)
        case .lastError(let text, let time):
            let json = Self.encode(WireError(seq: seq, time: Self.ms(time), text: text.map(Self.shortened), cause: text == nil ? nil : lastCauseSeq))
            lastCauseSeq = nil
            lastError = text == nil ? nil : json
            errorHistory.append(json)
            if errorHistory.count > Self.historyLimit { errorHistory.removeFirst() }
            writer.key("type"); writer.string("lastError")
            writer.key("record"); writer.splice(json)
        case .pendingAdded(let request):
            let json = encodePending(request, isLastReceived: links.isLastReceived || links.logged(is: request.message))
            keepPending(request, json)
            writer.key("type"); writer.string("pendingAdded")
            writer.key("record"); writer.splice(json)
        case .pendingRemoved(let correlationId, let action):
            if !pending.remove(correlationId) {
                // Not among the records kept: one of those left out is no longer pending.
                counts.uncountOmittedPending(action: action)
            }
            writer.key("type"); writer.string("pendingRemoved")
            writer.key("correlationId"); writer.string(correlationId)
        case .slot(let state):
            let json = Self.encode(WireSlot(state))
            slots[state.kind] = json
            writer.key("type"); writer.string("slot")
            writer.key("slot"); writer.splice(json)
        case .customCapabilities(let list):
            capabilities = Self.encode(list.map(WireCapability.init))
            writer.key("type"); writer.string("customCapabilities")
            writer.key("capabilities"); writer.splice(capabilities)
        case .receivedMessagesCleared:
            messages.removeAll(keepingCapacity: true)
            messageBytes = 0
            malformed.removeAll()
            counts.receivedMessages = 0
            writer.key("type"); writer.string("logCleared")
        case .journeyAttachment(let attached):
            journeyAttached = attached
            writer.key("type"); writer.string("journey")
            writer.key("attached"); writer.bool(attached)
        case .held(let message):
            // A hit is not announced by a `breakpoints` event: clients count it from this one.
            if let index = breakpoints.firstIndex(where: { $0.id == message.breakpoint }) { breakpoints[index].hits += 1 }
            let json = encodeHeld(message)
            keepHeld(message.id, json)
            rememberOrigin(of: message, isLastLogged: links.isLastLogged || links.logged(is: message.message))
            writer.key("type"); writer.string("held")
            writer.key("record"); writer.splice(json)
        case .heldResolved(let resolution):
            if let index = held.firstIndex(where: { $0.id == resolution.id }) {
                heldRecordBytes -= held[index].json.count
                held.remove(at: index)
            }
            // An edit marks the record logged before the hold, or waits for the record logged
            // after it (which, for a native host's delivery, carries the hold and comes next).
            let recordSeq = heldRecordSeqs.removeValue(forKey: resolution.id)
            if resolution.outcome != .edited {
                _ = forgetOriginal(of: resolution.id)
            } else if let recordSeq, let delivered = resolution.message {
                markEdited(seq: recordSeq, holdId: resolution.id, delivered: delivered)
            } else if resolution.direction == .received, let original = forgetOriginal(of: resolution.id) {
                // Logged when the host receives it, after this (the GBGBridge adapter).
                editedUnlogged.append((resolution.correlationId, resolution.id, original))
                editedUnloggedBytes += original.count
                while editedUnlogged.count > Self.maxHeldRecords || editedUnloggedBytes > Self.heldTotalLimit {
                    editedUnloggedBytes -= editedUnlogged.removeFirst().original.count
                }
            }
            writer.key("type"); writer.string("heldResolved")
            writer.key("record")
            writer.splice(Self.encode(WireHeldResolution(
                id: resolution.id, correlationId: resolution.correlationId, direction: resolution.direction,
                outcome: resolution.outcome, reason: resolution.reason, by: tag?.clientName, message: resolution.message,
                record: recordSeq, time: Self.ms(resolution.time))))
        }
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        // Kept once the frame is whole: a slice taken before would have made the writer copy it.
        if let logged { keepLogged(logged.ranges, of: logged.direction, in: writer.bytes) }
        return (writer.bytes, sent)
    }

    /// Logs a message that crossed the bridge: its counts, the bookkeeping of holds and edits,
    /// and its record, written as the `type` and `record` members of its event into `writer`.
    /// Returns where the record is in the writer's bytes, for `keepLogged(_:of:in:)` to keep
    /// once the frame is whole. `message` gives the decoded message when the record needs more
    /// than its bytes.
    private mutating func logTraffic(
        _ fields: TrafficFields, json: UnsafeRawBufferPointer, tag: AgentInbox.CommandTag?, message: () -> BridgeMessage?,
        into writer: inout JSONWriter
    ) -> LoggedRanges {
        // A message that was held is logged as it goes on, while whichever command let it go
        // runs (`release`, `removeBreakpoint`, `drop`): that does not make it the inspector's.
        // What an inspector writes itself is never held, so it is the journey's or the host's.
        // The one exception is the answer `answer` writes to a held request: it carries that
        // hold's mark, and it is the inspector's.
        let madeByCommand = fields.hold == nil || fields.hold?.outcome == .answered
        let origin = Self.origin(of: fields.direction, tag: madeByCommand ? tag : nil)
        let command = origin == .inspector ? tag?.command : nil
        noteTraffic(fields.direction)
        var logged = fields
        var original: Data?
        var envelope: BridgeMessage?
        if let hold = fields.hold {
            let kept = forgetOriginal(of: hold.id)
            if hold.outcome == .edited { original = kept }
        } else if fields.direction == .received, !editedUnlogged.isEmpty, let decoded = message() {
            envelope = decoded
            if let index = editedUnlogged.firstIndex(where: { $0.correlationId == decoded.correlationId }) {
                let edit = editedUnlogged.remove(at: index)
                editedUnloggedBytes -= edit.original.count
                logged.hold = HoldMark(id: edit.hold, outcome: .edited)
                original = edit.original
            }
        }
        if json.count > Self.forwardLimit, envelope == nil { envelope = message() }
        writer.key("type"); writer.string("traffic")
        writer.key("record")
        let start = writer.bytes.count
        let messageRange = writeTraffic(
            seq: seq, logged, json: json, envelope: envelope, origin: origin, command: command, rule: tag?.rule,
            original: original, into: &writer)
        return LoggedRanges(record: start..<writer.bytes.count, message: messageRange, messageBytes: json.count)
    }

    /// Where a traffic record just written is in its frame: the record, and its message's text
    /// (nil when the record carries the envelope without its data instead), and how many bytes
    /// the message has.
    struct LoggedRanges {
        var record: Range<Int>
        var message: Range<Int>?
        var messageBytes: Int
    }

    /// The counts and marks of a message numbered ``seq`` that crossed the bridge `direction`,
    /// logged now.
    private mutating func noteTraffic(_ direction: TrafficRecord.Direction) {
        if direction == .received {
            counts.received += 1
            counts.countReceivedMessage(cap: host.receivedMessagesCap)
        } else {
            counts.sent += 1
        }
        lastLoggedSeq[direction] = seq
        lastCauseSeq = seq
    }

    /// Keeps the traffic record at `logged` of the finished event `frame` in the log, as a slice
    /// of the frame (whose bytes the clients' queues share), and, for a received message, its
    /// text for a pending record of the same message.
    private mutating func keepLogged(_ logged: LoggedRanges, of direction: TrafficRecord.Direction, in frame: [UInt8]) {
        keepLogged(logged, of: direction, in: frame[...])
    }

    /// Keeps a record, as the other `keepLogged`, of a frame that is part of an array
    /// (`logged`'s ranges are the array's indices).
    private mutating func keepLogged(_ logged: LoggedRanges, of direction: TrafficRecord.Direction, in frame: ArraySlice<UInt8>) {
        if direction == .received {
            // Kept only up to what a pending record carries whole (a larger one's record is
            // truncated anyway).
            if logged.messageBytes <= Self.pendingMessageLimit, let message = logged.message {
                lastReceivedJSON = frame[message]
                lastReceivedTooLarge = false
            } else {
                lastReceivedJSON = nil
                lastReceivedTooLarge = true
            }
        }
        appendMessage(frame[logged.record])
    }

    /// The sequence number of the traffic record of the last message logged each way (two
    /// fields, not a dictionary: set for every message).
    struct LastLoggedSeq {
        private var received: Int?
        private var sent: Int?

        subscript(direction: TrafficRecord.Direction) -> Int? {
            get { direction == .received ? received : sent }
            set {
                if direction == .received { received = newValue } else { sent = newValue }
            }
        }
    }

    /// Takes the breakpoints as they are now and returns their event frame.
    mutating func apply(_ list: [WireBreakpoint]) -> [UInt8] {
        breakpoints = list
        let json = Self.encode(list)
        breakpointBytes = json.count + list.count * Self.recordOverhead
        return agentEventFrame(type: "breakpoints", key: "breakpoints", json)
    }

    /// Takes the fault rules as they are now and returns their event frame.
    mutating func apply(_ list: [WireFault]) -> [UInt8] {
        take(list)
        return faultsFrame()
    }

    /// Takes the fault rules as they are now for snapshots, without an event: new hit counts,
    /// whose event the core sends later (``faultsFrame()``).
    mutating func take(_ list: [WireFault]) {
        faults = list
        faultBytes = Self.encode(list).count + list.count * Self.recordOverhead
    }

    /// The event frame of the fault rules as they are now (numbered ``seq``).
    mutating func faultsFrame() -> [UInt8] {
        agentEventFrame(type: "faults", key: "faults", Self.encode(faults))
    }

    /// Returns the event frame that says a breakpoint's match was let through because of a cap.
    mutating func apply(_ skipped: WireHoldSkipped) -> [UInt8] {
        agentEventFrame(type: "holdSkipped", key: "record", Self.encode(skipped))
    }

    /// The next event frame of something the agent itself (not the host's change stream)
    /// announces: `{"type":type,key:json}`.
    private mutating func agentEventFrame(type: String, key: String, _ json: [UInt8]) -> [UInt8] {
        seq += 1
        var writer = JSONWriter(capacity: 128 + json.count)
        writer.objectStart()
        writer.key("kind"); writer.string("event")
        writer.key("seq"); writer.number(seq)
        writer.key("event"); writer.objectStart()
        writer.key("type"); writer.string(type)
        writer.key(key); writer.splice(json)
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }

    /// Who made a message that crossed the bridge while `tag`'s command ran (or none did): a
    /// message an inspector wrote itself (an answer, an event, an injected request) is the
    /// inspector's; what a handler sent in turn after `inject` or `release` is the host's.
    static func origin(of direction: TrafficRecord.Direction, tag: AgentInbox.CommandTag?) -> MessageOrigin {
        switch direction {
        case .received: return tag?.kind == "inject" ? .inspector : .journey
        case .sent: return tag.map { $0.runsHandlers ? .host : .inspector } ?? .host
        }
    }

    // MARK: Snapshots

    /// The `slots` and `customCapabilities` members, as in a snapshot's state and the hello's
    /// `capabilities`: what the host offers the journey.
    func writeCapabilities(into writer: inout JSONWriter) {
        writer.key("slots"); writer.arrayStart()
        for kind in CaptureCapability.Kind.allCases { if let slot = slots[kind] { writer.splice(slot) } }
        writer.arrayEnd()
        writer.key("customCapabilities"); writer.splice(capabilities)
    }

    /// The complete snapshot frame as of ``seq``, ending in a newline.
    func snapshotFrame() -> [UInt8] {
        var writer = JSONWriter(capacity: messageBytes + 4096)
        writer.objectStart()
        writer.key("kind"); writer.string("snapshot")
        writer.key("seq"); writer.number(seq)
        writer.key("state"); writer.objectStart()
        writer.key("host"); writer.splice(Self.encode(host))
        writer.key("journeyAttached"); writer.bool(journeyAttached)
        writer.key("lastError")
        if let lastError { writer.splice(lastError) } else { writer.null() }
        writer.key("errorHistory"); writer.arrayStart()
        for entry in errorHistory { writer.splice(entry) }
        writer.arrayEnd()
        writer.key("messages"); writer.arrayStart()
        for message in messages { writer.splice(message) }
        writer.arrayEnd()
        writer.key("malformed"); writer.arrayStart()
        for entry in malformed { writer.splice(entry) }
        writer.arrayEnd()
        writer.key("pending"); writer.arrayStart()
        pending.forEach { writer.splice($0) }
        writer.arrayEnd()
        writeCapabilities(into: &writer)
        writer.key("counts"); writer.splice(Self.encode(counts))
        writer.key("held"); writer.arrayStart()
        for record in held { writer.splice(record.json) }
        writer.arrayEnd()
        writer.key("breakpoints"); writer.splice(Self.encode(breakpoints))
        writer.key("faults"); writer.splice(Self.encode(faults))
        if let lastUnreadSentReport { writer.key("lastUnreadSentReport"); writer.splice(lastUnreadSentReport) }
        writer.objectEnd()
        writer.objectEnd()
        writer.newline()
        return writer.bytes
    }

    /// The bytes the agent's copy of the state holds, for memory accounting: the log, the pending
    /// records, the malformed inputs, the error history and the breakpoints, each record with an
    /// allowance for its bookkeeping (``recordOverhead``).
    var heldBytes: Int {
        let records = messages.count + pending.count + malformed.count + errorHistory.count + held.count + heldOriginals.count
            + heldRecordSeqs.count + editedUnlogged.count
        return messageBytes + pending.bytes + heldRecordBytes + heldOriginalBytes + editedUnloggedBytes
            + malformed.reduce(0) { $0 + $1.count }
            + (lastUnreadSentReport?.count ?? 0)
            + errorHistory.reduce(0) { $0 + $1.count } + records * Self.recordOverhead + breakpointBytes + faultBytes
            + (counts.pendingOmittedActions ?? [:]).keys.reduce(0) { $0 + $1.utf8.count + Self.recordOverhead }
    }

    /// Lets go of every record kept for snapshots (the log, pending, held and malformed records,
    /// the error history): called on the agent's thread as it ends, so that the thread that
    /// drops the agent last (the host's, in `stop()`) does not free them one by one. The state
    /// serves no snapshot after this.
    mutating func releaseRecords() {
        messages = []
        messageBytes = 0
        malformed = []
        pending = PendingRecords()
        held = []
        heldRecordBytes = 0
        heldRecordSeqs = [:]
        heldOriginals = [:]
        heldOriginalBytes = 0
        editedUnlogged = []
        editedUnloggedBytes = 0
        errorHistory = []
        lastError = nil
        lastReceivedJSON = nil
        lastUnreadSentReport = nil
    }

    /// What one kept record costs beyond its JSON bytes (the array's heap header, the deque or
    /// dictionary slot, the correlation id), rounded up.
    static let recordOverhead = 128

    /// Keeps a pending request's record for snapshots, unless the agent already keeps
    /// ``AgentLimits/maxPendingRecords`` of them or the record does not fit in
    /// ``pendingTotalLimit``: then it is only counted as left out, by action
    /// (`counts.pendingOmittedActions`), so the doctor can still name a near-miss action.
    private mutating func keepPending(_ request: PendingRequest, _ json: [UInt8]) {
        if pending.count < limits.maxPendingRecords, pending.bytes + json.count <= Self.pendingTotalLimit {
            pending.insert(request.message.correlationId, json)
        } else {
            counts.countOmittedPending(action: request.message.payload.action)
        }
    }

    /// A held message's JSON is kept whole up to ``pendingMessageLimit``; beyond it (or beyond
    /// ``heldTotalLimit`` for all held records together) its record keeps the envelope without
    /// `payload.data` and says `"truncated": true`. At most ``maxHeldRecords`` are kept for
    /// snapshots; every one is still announced by its `held` event.
    static let heldTotalLimit = 2 * 1024 * 1024
    /// See ``heldTotalLimit``.
    static let maxHeldRecords = 1000

    private mutating func keepHeld(_ id: String, _ json: [UInt8]) {
        guard held.count < Self.maxHeldRecords, heldRecordBytes + json.count <= Self.heldTotalLimit + Self.pendingMessageLimit else {
            return
        }
        held.append((id, json))
        heldRecordBytes += json.count
    }

    /// Notes what an edit of `message` will need: the traffic record it was logged with, when it
    /// was logged before it was held (then an edit marks that record); otherwise its JSON as
    /// held, the `original` of the record logged once it goes on (unless that would pass
    /// ``heldTotalLimit``).
    private mutating func rememberOrigin(of message: HeldMessage, isLastLogged: Bool) {
        if isLastLogged, let loggedSeq = lastLoggedSeq[message.direction] {
            guard heldRecordSeqs.count < Self.maxHeldRecords else { return }
            heldRecordSeqs[message.id] = loggedSeq
            return
        }
        let size = message.json.count
        guard size <= Self.pendingMessageLimit, heldOriginalBytes + size <= Self.heldTotalLimit, heldOriginals.count < Self.maxHeldRecords
        else { return }
        heldOriginals[message.id] = message.json
        heldOriginalBytes += size
    }

    /// Takes the original JSON kept for held message `id`, if any.
    private mutating func forgetOriginal(of id: String) -> Data? {
        guard let json = heldOriginals.removeValue(forKey: id) else { return nil }
        heldOriginalBytes -= json.count
        return json
    }

    /// Marks the traffic record `seq` (a message logged before it was held) as held at `holdId`
    /// and released edited: `hold` and `delivered` (what went on instead) are added to the record
    /// kept for snapshots, if it is still in the log. `delivered` is left out when the two
    /// messages together would not fit in a frame.
    private mutating func markEdited(seq: Int, holdId: String, delivered: BridgeMessage) {
        let prefix = Array("{\"seq\":\(seq),".utf8)
        guard let index = messages.lastIndex(where: { $0.starts(with: prefix) }), messages[index].last == UInt8(ascii: "}") else { return }
        var record = Array(messages[index])
        var writer = JSONWriter(capacity: 256)
        writer.objectStart()
        writer.key("hold"); writer.objectStart()
        writer.key("id"); writer.string(holdId)
        writer.key("outcome"); writer.string(HeldResolution.Outcome.edited.rawValue)
        writer.objectEnd()
        if let json = try? BridgeMessageCodec().encode(delivered), record.count + json.count <= WireProtocol.maxAgentFrameBytes - 64 * 1024 {
            writer.key("delivered"); Self.appendMessageJSON(json, to: &writer)
        }
        writer.objectEnd()
        // The record's closing brace gives way to the new members (the writer's object, opened
        // with `{`, is spliced in after a comma).
        record.removeLast()
        record.append(UInt8(ascii: ","))
        record.append(contentsOf: writer.bytes.dropFirst())
        messageBytes += record.count - messages[index].count
        messages[index] = record[...]
        trimLog()
    }

    private func encodeHeld(_ message: HeldMessage) -> [UInt8] {
        let breakpoint = breakpoints.first { $0.id == message.breakpoint }
        var json = message.json
        let truncated = json.count > Self.pendingMessageLimit || heldRecordBytes + json.count > Self.heldTotalLimit
        if truncated {
            var envelope = message.message
            envelope.payload.data = nil
            json = (try? BridgeMessageCodec().encode(envelope)) ?? Data("null".utf8)
        }
        var writer = JSONWriter(capacity: json.count + 192)
        writer.objectStart()
        writer.key("id"); writer.string(message.id)
        writer.key("direction"); writer.string(message.direction.rawValue)
        writer.key("since"); writer.number(Self.ms(message.since))
        writer.key("deadline"); writer.number(Self.ms(message.deadline))
        writer.key("breakpoint"); writer.string(message.breakpoint)
        if let breakpoint { writer.key("owner"); writer.string(breakpoint.owner) }
        if truncated { writer.key("truncated"); writer.bool(true) }
        writer.key("message"); Self.appendMessageJSON(json, to: &writer)
        writer.objectEnd()
        return writer.bytes
    }

    // MARK: Encoding

    private mutating func appendMessage(_ json: ArraySlice<UInt8>) {
        // A record larger than the whole budget is not kept at all (it still reached the clients
        // connected at the time, as an event), and it pushes nothing else out.
        guard json.count <= limits.effectiveMaxLogBytes else {
            counts.evicted += 1
            return
        }
        messages.append(json)
        messageBytes += json.count
        trimLog()
    }

    /// Drops the oldest records until the log is within its bounds.
    private mutating func trimLog() {
        while !messages.isEmpty, messages.count > limits.maxLogMessages || messageBytes > limits.effectiveMaxLogBytes {
            let dropped = messages.removeFirst()
            messageBytes -= dropped.count
            counts.evicted += 1
        }
    }

    /// The most records the log makes room for up front (``AgentLimits/maxLogMessages`` by
    /// default: 320 KiB of slices, which a fresh mapping backs only as the log fills).
    static let logCapacityReserved = 10_000

    /// The largest message forwarded whole in a traffic record; a larger one's record carries
    /// its envelope with the data left out, so that the record fits in a frame.
    static let forwardLimit = WireProtocol.maxAgentFrameBytes - 64 * 1024

    /// A traffic record's members other than its message, as the change stream gives them (a
    /// plain record handed over as bytes has only its direction and time).
    struct TrafficFields {
        var direction: TrafficRecord.Direction
        var time: Date
        var deliveryError: String?
        var lost: String?
        var hold: HoldMark?
        var fault: FaultMark?
        var reported: Data?

        init(direction: TrafficRecord.Direction, time: Date) {
            self.direction = direction
            self.time = time
        }

        init(_ record: TrafficRecord) {
            direction = record.direction
            time = record.time
            deliveryError = record.deliveryError
            lost = record.lost
            hold = record.hold
            fault = record.fault
            reported = record.reported
        }
    }

    /// Writes a traffic record (an object) into `writer`: `fields`, the message's bytes `json`
    /// (or, beyond ``forwardLimit``, `envelope` without its data). Returns where the message's
    /// text is in the writer's bytes (nil for the envelope).
    @discardableResult
    private func writeTraffic(
        seq: Int, _ record: TrafficFields, json: UnsafeRawBufferPointer, envelope: BridgeMessage?, origin: MessageOrigin,
        command: String?, rule: String? = nil, original: Data? = nil, into writer: inout JSONWriter
    ) -> Range<Int>? {
        writer.objectStart()
        writer.key("seq"); writer.number(seq)
        writer.key("direction"); writer.string(record.direction.rawValue)
        writer.key("time"); writer.number(Self.ms(record.time))
        writer.key("origin"); writer.string(origin.rawValue)
        if let command { writer.key("command"); writer.string(command) }
        if let rule { writer.key("rule"); writer.string(rule) }
        if let error = record.deliveryError { writer.key("deliveryError"); writer.string(error) }
        if let lost = record.lost { writer.key("lost"); writer.string(Self.shortened(lost)) }
        if let hold = record.hold {
            writer.key("hold"); writer.objectStart()
            writer.key("id"); writer.string(hold.id)
            writer.key("outcome"); writer.string(hold.outcome.rawValue)
            writer.objectEnd()
        }
        if let fault = record.fault {
            writer.key("fault"); writer.objectStart()
            writer.key("rule"); writer.string(fault.rule)
            writer.key("effect"); writer.string(fault.effect.rawValue)
            if let detail = fault.detail { writer.key("detail"); writer.string(detail) }
            writer.objectEnd()
        }
        if let original, json.count + original.count <= Self.forwardLimit {
            writer.key("original"); Self.appendMessageJSON(original, to: &writer)
        }
        writer.key("bytes"); writer.number(json.count)
        if let reported = record.reported, json.count + 6 * reported.count <= Self.forwardLimit {
            // At most six bytes a byte once escaped, so the record always fits in a frame.
            writer.key("reported"); writer.string(String(decoding: reported, as: UTF8.self))
        }
        var message: Range<Int>?
        if json.count > Self.forwardLimit {
            // Too large to forward: send the envelope with its data left out.
            writer.key("truncated"); writer.bool(true)
            writer.key("message")
            if var envelope {
                envelope.payload.data = nil
                if let encoded = try? BridgeMessageCodec().encode(envelope) { writer.rawJSON(encoded) } else { writer.null() }
            } else {
                writer.null()
            }
        } else {
            writer.key("message")
            // The value goes after the separator the writer adds first (none after a key).
            let start = writer.bytes.count
            Self.appendMessageJSON(json, to: &writer)
            message = start..<writer.bytes.count
        }
        writer.objectEnd()
        return message
    }

    /// A pending request's message is kept whole up to this size, while all pending records
    /// together stay under ``pendingTotalLimit``; beyond either, its record keeps the envelope
    /// without `payload.data` and says `"truncated": true` (the whole message is in the log).
    /// A snapshot must stay within the agent's frame cap for any inspector to attach; the number
    /// of records is bounded by ``AgentLimits/maxPendingRecords``.
    static let pendingMessageLimit = 256 * 1024
    /// See ``pendingMessageLimit``.
    static let pendingTotalLimit = 16 * 1024 * 1024

    /// The record of the request the host put in `pendingRequests`: what the host routed, which
    /// is not always the last message received with its id (a hold released with an edit, or a
    /// refused duplicate sent while the first was held); the received bytes are reused only when
    /// they are that very message.
    private func encodePending(_ request: PendingRequest, isLastReceived: Bool) -> [UInt8] {
        var message: Data
        var tooLarge = false
        if isLastReceived, let lastReceivedJSON {
            message = Data(lastReceivedJSON)
        } else if isLastReceived, lastReceivedTooLarge {
            // Its bytes were not kept: over the limit, the record is truncated.
            message = Data()
            tooLarge = true
        } else {
            message = (try? BridgeMessageCodec().encode(request.message)) ?? Data("null".utf8)
        }
        let truncated = tooLarge || message.count > Self.pendingMessageLimit || pending.bytes + message.count > Self.pendingTotalLimit
        if truncated {
            var envelope = request.message
            envelope.payload.data = nil
            message = (try? BridgeMessageCodec().encode(envelope)) ?? Data("null".utf8)
        }
        var writer = JSONWriter(capacity: message.count + 128)
        writer.objectStart()
        writer.key("correlationId"); writer.string(request.message.correlationId)
        writer.key("action"); writer.string(request.message.payload.action)
        writer.key("since"); writer.number(Self.ms(request.since))
        if truncated { writer.key("truncated"); writer.bool(true) }
        writer.key("message"); Self.appendMessageJSON(message, to: &writer)
        writer.objectEnd()
        return writer.bytes
    }

    /// Splices a message's JSON into a frame. `JSONWriter.rawJSON` scans the bytes twice through
    /// `Data`'s byte iterator to replace raw line breaks, which costs more than the rest of the
    /// frame (about 60 ms for a 10 MB message); here `memchr` finds out first whether there is
    /// any line break at all, which there almost never is (compact JSON has none).
    static func appendMessageJSON(_ json: Data, to writer: inout JSONWriter) {
        json.withUnsafeBytes { appendMessageJSON($0, to: &writer) }
    }

    /// ``appendMessageJSON(_:to:)-(Data,_)`` for bytes the caller holds.
    static func appendMessageJSON(_ json: UnsafeRawBufferPointer, to writer: inout JSONWriter) {
        let hasLineBreak: Bool
        if let base = json.baseAddress {
            hasLineBreak = memchr(base, 0x0A, json.count) != nil || memchr(base, 0x0D, json.count) != nil
        } else {
            hasLineBreak = false
        }
        if hasLineBreak { writer.rawJSON(Data(json)) } else { writer.splice(json) }
    }

    /// A malformed input's record, within ``malformedRecordLimit``: `raw` keeps the first 64 KiB
    /// of the input, or less when JSON escaping (six bytes for a control character) would make
    /// the record larger.
    /// `injectedBy` is the id of the `inject` command that handed the text over, when an
    /// inspector did: the record then has `origin` `inspector` and that `command`.
    static func encodeMalformed(_ input: MalformedInput, seq: Int, injectedBy command: String? = nil) -> [UInt8] {
        var prefix = malformedTextLimit
        while true {
            let json = encode(
                WireMalformed(
                    seq: seq, time: ms(input.time),
                    raw: String(decoding: input.raw.prefix(prefix), as: UTF8.self),
                    bytes: input.raw.count, reason: shortened(input.reason), direction: input.direction == .sent ? .sent : nil,
                    origin: command == nil ? nil : .inspector, command: command))
            if json.count <= malformedRecordLimit || prefix == 0 { return json }
            prefix /= 8
        }
    }

    /// `text`, cut to ``errorTextLimit`` bytes (at a character boundary) with a note of how much
    /// was left out.
    static func shortened(_ text: String) -> String {
        guard text.utf8.count > errorTextLimit else { return text }
        // A scalar takes at most four bytes, so this many always fit.
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix((errorTextLimit - 64) / 4)))
        return kept + "… (\(text.utf8.count - kept.utf8.count) more bytes not kept)"
    }

    static func ms(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }

    /// Encodes a small wire value (slots, errors, host info) with Foundation.
    static func encode(_ value: some Encodable) -> [UInt8] {
        (try? Array(JSONEncoding.encode(value))) ?? Array("null".utf8)
    }
}
