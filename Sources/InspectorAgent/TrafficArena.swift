import BridgeCore
import Foundation

/// The plain traffic records of one ``AgentInbox/Batch``, each a small header and its message's
/// bytes, one after another in one buffer the arena owns.
///
/// This is what the host's thread writes for nearly every message that crosses the bridge, so it
/// is kept to the least work: a capacity check, three stores and one `memcpy`. A `[UInt8]` grown
/// by `append(contentsOf:)` beside an array of records (what this replaces) checked the array's
/// uniqueness and capacity twice and copied through the standard library's generic path. Nothing
/// in the arena is reference-counted but its buffer's owner, which moves with the batch between
/// the threads (under the inbox's lock) and is never touched by both at once.
///
/// Layout of a record, at an 8-byte aligned offset: the time (`Double`, seconds since the
/// reference date, which gives the `Date` back exactly), the message's byte count (`UInt32`), the
/// direction (one byte), whether the message is in an array of its own (one byte), then the
/// bytes; the next record starts at the next multiple of 8.
///
/// A message of at least ``ownBufferMessageBytes`` is not copied into the buffer but into an
/// array of its own (``ownBuffers``), laid out as its event frame will be: room for the frame's
/// head before the message and for its tail after it. The agent writes the head and the tail in
/// place and sends, logs and queues that array as the frame (``TrafficEventFrame/inPlace(_:seq:direction:time:)``),
/// so the message is not copied a second time into a frame of its own. The host's thread does no
/// more work for it than before: a buffer grown for such a message was larger than the inbox
/// keeps (``AgentInbox/batchBytesKept``), so it was a fresh allocation and a copy as well. Its
/// header holds the array's index in place of the byte count.
struct TrafficArena {
    /// Owns the buffer: freed when the last batch holding it goes.
    private final class Buffer {
        let base: UnsafeMutableRawPointer
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: TrafficArena.alignment)
        }

        deinit { base.deallocate() }
    }

    private var buffer: Buffer?
    /// `buffer`'s start and size, kept beside it: the hot path reads no property of a class.
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    /// Bytes used, a multiple of ``alignment``.
    private var used = 0
    /// Records written.
    private(set) var count = 0
    /// The arrays of the messages of at least ``ownBufferMessageBytes``, each laid out as
    /// ``ownBufferHeadRoom`` bytes, the message, ``ownBufferTailRoom`` bytes. A taken one is
    /// empty (``takeOwnBuffers()``).
    private var ownBuffers: [[UInt8]] = []

    /// Bytes of the header before each record's message.
    static let headerBytes = 16
    /// Every record starts at a multiple of this.
    static let alignment = 8
    /// The smallest buffer allocated: 256 KiB, above glibc's threshold for serving an
    /// allocation with its own mapping (128 KiB at the start; glibc raises it when such a mapping
    /// is freed, and other allocators decide otherwise), so that the arena's buffers stay out of
    /// the heap the host's thread allocates from, where the allocator allows. A buffer in that heap, grown or freed now and then,
    /// moved where the host's own frees fall, and one of them in two runs merged into a chunk of
    /// 64 KiB and made malloc consolidate the whole heap (about 230 instructions a message over a
    /// 1000-message count). Only the pages written are ever backed by memory.
    static let minimumCapacity = 256 * 1024
    /// The largest message a record holds (its count is stored in 32 bits).
    static let maxMessageBytes = Int(UInt32.max)
    /// The smallest message copied into an array of its own: the size past which the inbox does
    /// not keep a batch's buffer (``AgentInbox/batchBytesKept``), so the host's thread never
    /// allocates for a message it would have copied into a buffer kept from an earlier batch.
    static let ownBufferMessageBytes = 4 * 1024 * 1024
    /// Bytes left before the message in its own array: room for the longest frame head
    /// ``TrafficEventFrame`` writes with whole-millisecond times (about 230 bytes).
    static let ownBufferHeadRoom = 320
    /// Bytes left after the message in its own array: the frame's tail, `}}}` and a newline.
    static let ownBufferTailRoom = 4

    /// One record, as ``forEach(_:)`` hands it over: its message's bytes are the arena's, valid
    /// only during the call.
    struct Record {
        var direction: TrafficRecord.Direction
        var time: Date
        /// The message's bytes; empty for a message in an array of its own that was taken
        /// (``takeOwnBuffers()``).
        var json: UnsafeRawBufferPointer
        /// The index of the message's own array among those ``takeOwnBuffers()`` gives, or -1
        /// for a message in the arena's buffer.
        var ownBuffer = -1
        /// The bytes this record and the rest of its run take in the arena (headers and
        /// alignment included: at least their messages' bytes), and how many records that is:
        /// what a reader that writes the run's frames into one array sizes it by.
        var runLeft = RunLeft(bytes: 0, records: 1)
    }

    /// What is left of a run of records, from one on (``Record/runLeft``).
    struct RunLeft {
        var bytes: Int
        var records: Int
    }

    /// Bytes of buffer, by capacity.
    var capacityBytes: Int { capacity }

    /// Bytes of buffer the records take, up to the next record's aligned start: never more than
    /// ``capacityBytes``.
    var usedBytes: Int { used }

    var isEmpty: Bool { count == 0 }

    /// Appends a record of `json` crossing the bridge `direction` at `time`. `json` must hold at
    /// most ``maxMessageBytes`` bytes (the inbox hands over far smaller messages only).
    mutating func append(_ direction: TrafficRecord.Direction, time: Date, json: UnsafeRawBufferPointer) {
        if _slowPath(json.count >= Self.ownBufferMessageBytes) {
            appendOwnBuffer(direction, time: time, json: json)
            return
        }
        // The record's room up to the next record's aligned start: checked whole, so that `used`
        // never passes `capacity` (a capacity is not always a multiple of the alignment).
        let size = Self.recordBytes(messageBytes: json.count)
        // A copy of the arena (never made by the inbox) must not write into the buffer it shares.
        if _slowPath(used + size > capacity || !isKnownUniquelyReferenced(&buffer)) { grow(toHold: size) }
        guard let base else { return }
        let at = base + used
        at.storeBytes(of: time.timeIntervalSinceReferenceDate, as: Double.self)
        (at + 8).storeBytes(of: UInt32(truncatingIfNeeded: json.count), as: UInt32.self)
        (at + 12).storeBytes(of: direction == .received ? 0 : 1, as: UInt8.self)
        (at + 13).storeBytes(of: 0, as: UInt8.self)
        if let source = json.baseAddress, json.count > 0 {
            (at + Self.headerBytes).copyMemory(from: source, byteCount: json.count)
        }
        used += size
        count += 1
    }

    /// Appends a record of a message of at least ``ownBufferMessageBytes``: its header in the
    /// buffer, its bytes in an array of their own with room for the frame's head and tail.
    private mutating func appendOwnBuffer(_ direction: TrafficRecord.Direction, time: Date, json: UnsafeRawBufferPointer) {
        let size = Self.headerBytes
        if used + size > capacity || !isKnownUniquelyReferenced(&buffer) { grow(toHold: size) }
        guard let base else { return }
        let total = Self.ownBufferHeadRoom + json.count + Self.ownBufferTailRoom
        let own = [UInt8](unsafeUninitializedCapacity: total) { array, initialized in
            guard let start = array.baseAddress else { return }
            // The head room is written over by the frame's head (its unused start is never sent);
            // zeroed so that the array holds no uninitialized bytes.
            start.initialize(repeating: 0, count: Self.ownBufferHeadRoom)
            if let source = json.baseAddress {
                UnsafeMutableRawPointer(start + Self.ownBufferHeadRoom).copyMemory(from: source, byteCount: json.count)
            }
            (start + Self.ownBufferHeadRoom + json.count).initialize(repeating: 0, count: Self.ownBufferTailRoom)
            initialized = total
        }
        let at = base + used
        at.storeBytes(of: time.timeIntervalSinceReferenceDate, as: Double.self)
        (at + 8).storeBytes(of: UInt32(truncatingIfNeeded: ownBuffers.count), as: UInt32.self)
        (at + 12).storeBytes(of: direction == .received ? 0 : 1, as: UInt8.self)
        (at + 13).storeBytes(of: 1, as: UInt8.self)
        ownBuffers.append(own)
        used += size
        count += 1
    }

    /// Hands over the arrays of the messages of at least ``ownBufferMessageBytes``, by the index
    /// their records carry (``Record/ownBuffer``), each referenced only by the result: the agent
    /// writes their frames into them in place. The records read after this have empty messages.
    mutating func takeOwnBuffers() -> [[UInt8]] {
        guard !ownBuffers.isEmpty else { return [] }
        var taken = ownBuffers.map { _ in [UInt8]() }
        swap(&taken, &ownBuffers)
        return taken
    }

    /// Where the message is in an array of its own of `count` bytes.
    static func messageRange(inOwnBufferOf count: Int) -> Range<Int> {
        ownBufferHeadRoom..<max(ownBufferHeadRoom, count - ownBufferTailRoom)
    }

    /// Makes room for `size` more bytes in a buffer of its own: a new one, holding the records so
    /// far, of twice the capacity when full (of the same when only shared).
    private mutating func grow(toHold size: Int) {
        let needed = used + size
        let grown = Buffer(capacity: max(Self.minimumCapacity, needed > capacity ? 2 * capacity : capacity, needed))
        if let base, used > 0 { grown.base.copyMemory(from: base, byteCount: used) }
        buffer = grown
        base = grown.base
        capacity = grown.capacity
    }

    /// Forgets every record, keeping the buffer.
    mutating func removeAll() {
        used = 0
        count = 0
        if !ownBuffers.isEmpty { ownBuffers = [] }
    }

    /// Calls `body` with each record, oldest first.
    func forEach(_ body: (Record) throws -> Void) rethrows {
        var offset = 0
        try forEach(from: &offset, count: count, body)
    }

    /// Calls `body` with the `count` records from `offset` on, and leaves `offset` after them:
    /// how a batch walks its records a run at a time between its other items.
    func forEach(from offset: inout Int, count: Int, _ body: (Record) throws -> Void) rethrows {
        guard let base else { return }
        var runEnd = offset
        for _ in 0..<count where runEnd + Self.headerBytes <= used {
            runEnd += Self.span(at: base + runEnd)
        }
        for index in 0..<count {
            guard offset + Self.headerBytes <= used else { return }
            let runLeft = RunLeft(bytes: runEnd - offset, records: count - index)
            let at = base + offset
            let time = Date(timeIntervalSinceReferenceDate: at.load(as: Double.self))
            let bytes = Int(at.load(fromByteOffset: 8, as: UInt32.self))
            let direction: TrafficRecord.Direction = at.load(fromByteOffset: 12, as: UInt8.self) == 0 ? .received : .sent
            if _slowPath(at.load(fromByteOffset: 13, as: UInt8.self) != 0) {
                try forEachOwnBuffer(index: bytes, direction: direction, time: time, body)
            } else {
                try body(Record(
                    direction: direction, time: time, json: UnsafeRawBufferPointer(start: at + Self.headerBytes, count: bytes),
                    runLeft: runLeft))
            }
            offset += Self.span(at: at)
        }
    }

    /// The bytes the record at `at` takes in the buffer, up to the next record's aligned start:
    /// its header alone for a message in an array of its own.
    private static func span(at: UnsafeMutableRawPointer) -> Int {
        if _slowPath(at.load(fromByteOffset: 13, as: UInt8.self) != 0) { return headerBytes }
        return recordBytes(messageBytes: Int(at.load(fromByteOffset: 8, as: UInt32.self)))
    }

    /// The bytes a record of a `messageBytes`-byte message takes in the buffer: its header and
    /// the message, up to the next record's aligned start.
    @inline(__always)
    static func recordBytes(messageBytes: Int) -> Int {
        (headerBytes + messageBytes + alignment - 1) & ~(alignment - 1)
    }

    /// Calls `body` with the record of a message in its own array (number `index`): its bytes
    /// while the array is still the arena's, none once taken.
    private func forEachOwnBuffer(index: Int, direction: TrafficRecord.Direction, time: Date, _ body: (Record) throws -> Void) rethrows {
        guard index < ownBuffers.count, !ownBuffers[index].isEmpty else {
            try body(Record(direction: direction, time: time, json: UnsafeRawBufferPointer(start: nil, count: 0), ownBuffer: index))
            return
        }
        try ownBuffers[index].withUnsafeBytes { own in
            let message = Self.messageRange(inOwnBufferOf: own.count)
            try body(Record(direction: direction, time: time, json: UnsafeRawBufferPointer(rebasing: own[message]), ownBuffer: index))
        }
    }
}
