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
/// direction (one byte), then the bytes; the next record starts at the next multiple of 8.
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

    /// One record, as ``forEach(_:)`` hands it over: its message's bytes are the arena's, valid
    /// only during the call.
    struct Record {
        var direction: TrafficRecord.Direction
        var time: Date
        var json: UnsafeRawBufferPointer
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
        // The record's room up to the next record's aligned start: checked whole, so that `used`
        // never passes `capacity` (a capacity is not always a multiple of the alignment).
        let size = (Self.headerBytes + json.count + Self.alignment - 1) & ~(Self.alignment - 1)
        // A copy of the arena (never made by the inbox) must not write into the buffer it shares.
        if _slowPath(used + size > capacity || !isKnownUniquelyReferenced(&buffer)) { grow(toHold: size) }
        guard let base else { return }
        let at = base + used
        at.storeBytes(of: time.timeIntervalSinceReferenceDate, as: Double.self)
        (at + 8).storeBytes(of: UInt32(truncatingIfNeeded: json.count), as: UInt32.self)
        (at + 12).storeBytes(of: direction == .received ? 0 : 1, as: UInt8.self)
        if let source = json.baseAddress, json.count > 0 {
            (at + Self.headerBytes).copyMemory(from: source, byteCount: json.count)
        }
        used += size
        count += 1
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
        for _ in 0..<count {
            guard offset + Self.headerBytes <= used else { return }
            let at = base + offset
            let time = Date(timeIntervalSinceReferenceDate: at.load(as: Double.self))
            let bytes = Int(at.load(fromByteOffset: 8, as: UInt32.self))
            let direction: TrafficRecord.Direction = at.load(fromByteOffset: 12, as: UInt8.self) == 0 ? .received : .sent
            try body(Record(direction: direction, time: time, json: UnsafeRawBufferPointer(start: at + Self.headerBytes, count: bytes)))
            offset += (Self.headerBytes + bytes + Self.alignment - 1) & ~(Self.alignment - 1)
        }
    }
}
