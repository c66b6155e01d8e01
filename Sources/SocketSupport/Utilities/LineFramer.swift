#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into newline-delimited frames (one JSON object per line),
/// with a cap on the length of a line so a peer can never make us buffer without bound.
///
/// Feed it whatever each read returned: chunks may split lines anywhere, even byte by
/// byte, and one chunk may hold many lines. Each complete line comes out without its
/// `\n` (and, by default, without a `\r` right before it). A line longer than
/// `maximumLineLength` comes out once as `.oversized` as soon as the cap is exceeded;
/// the rest of that line is skipped up to the next newline without being stored, and
/// the line after it is framed normally. Each chunk is scanned once (no rescans of
/// what is already buffered, and nothing is shifted), and only an unfinished line of at
/// most `maximumLineLength` bytes is kept between chunks.
///
/// A line that spanned chunks comes out as the framer's buffer itself, not a copy. A reader of
/// long lines (snapshots, large messages) creates the framer with `expectsLongLines`: the next
/// long line then reserves at once about the length of the last (memory not touched until
/// written), instead of growing step by step and copying what it holds at each step:
///
/// ```swift
/// var framer = LineFramer(maximumLineLength: 32 << 20, expectsLongLines: true)
/// for case .line(let line) in framer.feed(bytesJustRead) { handle(line) }
/// ```
public struct LineFramer: Sendable {
    /// One result of framing.
    public enum Frame: Sendable, Hashable {
        /// A complete line, without its line terminator.
        case line([UInt8])
        /// A line exceeded the cap. `byteCount` is how many of its bytes had been seen
        /// when that was noticed (more than `maximumLineLength`; the line may be longer).
        case oversized(byteCount: Int)
    }

    /// The longest line accepted, in bytes, counting a `\r` before the `\n` but not the `\n`.
    public let maximumLineLength: Int
    /// Whether a `\r` right before the `\n` is removed from each line.
    public let stripsCarriageReturn: Bool
    /// Whether lines are expected to be long and to come one after another: a line past
    /// ``longLineThreshold`` that outgrows the buffer reserves at once half as much again as the
    /// last such line was long (up to the cap).
    public let expectsLongLines: Bool

    private var buffer: [UInt8] = []
    private var discarding = false
    /// With ``expectsLongLines``, the length of the last line longer than ``longLineThreshold``
    /// that spanned chunks (0 before one).
    private var lastLongLineLength = 0

    /// The length past which a line counts as long (``expectsLongLines``): 64 KiB, or a quarter
    /// of the cap when that is smaller. A line that merely spans two reads stays below it.
    public var longLineThreshold: Int {
        min(64 * 1024, max(1, maximumLineLength / 4))
    }

    /// A framer accepting lines of up to `maximumLineLength` bytes (at least 1); with
    /// `expectsLongLines`, one for long lines (``expectsLongLines``).
    public init(maximumLineLength: Int, stripsCarriageReturn: Bool = true, expectsLongLines: Bool = false) {
        self.maximumLineLength = max(1, maximumLineLength)
        self.stripsCarriageReturn = stripsCarriageReturn
        self.expectsLongLines = expectsLongLines
    }

    /// Bytes of an unfinished line held until its newline arrives (never more than
    /// `maximumLineLength`). Non-zero at end of file means the peer stopped mid-line.
    public var bufferedByteCount: Int {
        buffer.count
    }

    /// Memory the buffer takes: its capacity, which can be larger than ``bufferedByteCount``
    /// (the buffer grows in steps, or reserves at once with ``expectsLongLines``) but never
    /// larger than `maximumLineLength` (rounded up to the allocator's size class). For memory
    /// accounting.
    public var bufferedCapacity: Int {
        buffer.capacity
    }

    /// Whether the rest of an oversized line is being skipped.
    public var isSkippingOversizedLine: Bool {
        discarding
    }

    /// Forgets any unfinished line and frees the buffer, for example when a connection ends.
    public mutating func reset() {
        buffer = []
        discarding = false
        lastLongLineLength = 0
    }

    /// Frames `chunk`, calling `body` for each frame in order, each line in an array of its own.
    /// The framer's state is updated before each call, so an error thrown by `body` leaves it
    /// consistent (the remaining bytes of the chunk are then not framed).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Frame) throws -> Void) rethrows {
        let stripsCarriageReturn = stripsCarriageReturn
        try scan(
            chunk,
            whole: { line in try body(.line(Array(line))) },
            buffered: { buffer in
                // The buffer becomes the line: nothing is copied.
                var line = buffer
                buffer = []
                if stripsCarriageReturn, line.last == 0x0D {
                    line.removeLast()
                }
                try body(.line(line))
            },
            oversized: { try body(.oversized(byteCount: $0)) })
    }

    /// One result of ``feed(lending:_:)``: as ``Frame``, but a line's bytes are lent for the
    /// call only (they lie in the chunk or in the framer's buffer, and are gone after it).
    public enum LentFrame {
        /// A complete line, without its line terminator; valid only during the call.
        case line(UnsafeRawBufferPointer)
        /// A line exceeded the cap (as ``Frame/oversized(byteCount:)``).
        case oversized(byteCount: Int)
    }

    /// Frames `chunk` as ``feed(_:_:)`` does, lending each line instead of giving it in an array
    /// of its own: for a reader that only reads a line while it handles it (a client that
    /// decodes every line and keeps only the frame), no array is made, filled and freed per line
    /// (issue 30). The same lines, oversized lines and framer state as ``feed(_:_:)``; a line's
    /// bytes must not be used after `body` returns.
    public mutating func feed(lending chunk: UnsafeRawBufferPointer, _ body: (LentFrame) throws -> Void) rethrows {
        let stripsCarriageReturn = stripsCarriageReturn
        try scan(
            chunk,
            whole: { line in try body(.line(line)) },
            buffered: { buffer in
                // Read in place; the scan empties the buffer after the call, as when it is taken.
                try buffer.withUnsafeBytes { line in
                    try body(.line(Self.withoutCarriageReturn(line, strips: stripsCarriageReturn)))
                }
            },
            oversized: { try body(.oversized(byteCount: $0)) })
    }

    /// Frames `chunk` and returns its frames in order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        feed(chunk) { frames.append($0) }
        return frames
    }

    /// Frames `bytes` and returns their frames in order.
    public mutating func feed(_ bytes: [UInt8]) -> [Frame] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Frames `bytes` and returns their frames in order.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Frame] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// The one scan of a chunk: `whole` gets a line that arrived whole in `chunk` (its
    /// terminator removed); `buffered` a line that spanned chunks, as the buffer holding it with
    /// a `\r` before the newline still there (it may take the buffer; the buffer is emptied
    /// after the call, whether or not the call throws); `oversized` the byte count of a line over
    /// the cap. Inlined into `feed` so that the closures are called directly: a client frames
    /// every line it reads here.
    @inline(__always)
    private mutating func scan(
        _ chunk: UnsafeRawBufferPointer,
        whole: (UnsafeRawBufferPointer) throws -> Void,
        buffered: (inout [UInt8]) throws -> Void,
        oversized: (Int) throws -> Void
    ) rethrows {
        guard let base = chunk.baseAddress else { return }
        let count = chunk.count
        var start = 0
        while start < count {
            let found = memchr(base + start, 0x0A, count - start)
            let newline: Int? = found.map { base.distance(to: UnsafeRawPointer($0)) }
            let end = newline ?? count
            let segment = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            start = end + 1

            if discarding {
                if newline != nil { discarding = false }
                continue
            }
            let seen = buffer.count + segment.count
            if seen > maximumLineLength {
                buffer.removeAll()
                discarding = newline == nil
                try oversized(seen)
                continue
            }
            if newline == nil || !buffer.isEmpty {
                // Grow in steps, but never past the cap: an unfinished line of at most
                // `maximumLineLength` bytes then takes at most that much memory.
                if seen > buffer.capacity {
                    buffer.reserveCapacity(min(maximumLineLength, max(seen, 2 * buffer.capacity, longLineReservation(seen))))
                }
                buffer.append(contentsOf: segment)
            }
            guard newline != nil else { continue }
            if buffer.isEmpty {
                try whole(Self.withoutCarriageReturn(segment, strips: stripsCarriageReturn))
            } else {
                if expectsLongLines, buffer.count > longLineThreshold { lastLongLineLength = buffer.count }
                defer { buffer.removeAll() }
                try buffered(&buffer)
            }
        }
    }

    /// What a line `seen` bytes long so far reserves at once: with ``expectsLongLines``, once it
    /// is long, half as much again as the last long line; otherwise nothing beyond its steps.
    @inline(__always)
    private func longLineReservation(_ seen: Int) -> Int {
        guard expectsLongLines, seen > longLineThreshold else { return 0 }
        return lastLongLineLength + lastLongLineLength / 2
    }

    /// `line` without a `\r` at its end, when `strips`.
    private static func withoutCarriageReturn(_ line: UnsafeRawBufferPointer, strips: Bool) -> UnsafeRawBufferPointer {
        guard strips, let last = line.last, last == 0x0D else { return line }
        return UnsafeRawBufferPointer(rebasing: line[..<(line.count - 1)])
    }
}
