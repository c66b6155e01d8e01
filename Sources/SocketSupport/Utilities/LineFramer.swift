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
/// what is already buffered), and only an unfinished line of at most
/// `maximumLineLength` bytes is kept between chunks.
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

    private var buffer: [UInt8] = []
    private var discarding = false

    /// A framer accepting lines of up to `maximumLineLength` bytes (at least 1).
    public init(maximumLineLength: Int, stripsCarriageReturn: Bool = true) {
        self.maximumLineLength = max(1, maximumLineLength)
        self.stripsCarriageReturn = stripsCarriageReturn
    }

    /// Bytes of an unfinished line held until its newline arrives (never more than
    /// `maximumLineLength`). Non-zero at end of file means the peer stopped mid-line.
    public var bufferedByteCount: Int {
        buffer.count
    }

    /// Memory the unfinished line takes: the buffer's capacity, which can be larger than
    /// ``bufferedByteCount`` (the buffer grows in steps) but never larger than
    /// `maximumLineLength` (rounded up to the allocator's size class). For memory accounting.
    public var bufferedCapacity: Int {
        buffer.capacity
    }

    /// Whether the rest of an oversized line is being skipped.
    public var isSkippingOversizedLine: Bool {
        discarding
    }

    /// Forgets any unfinished line, for example when a connection ends.
    public mutating func reset() {
        buffer = []
        discarding = false
    }

    /// Frames `chunk`, calling `body` for each frame in order. The framer's state is
    /// updated before each call, so an error thrown by `body` leaves it consistent
    /// (the remaining bytes of the chunk are then not framed).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Frame) throws -> Void) rethrows {
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
                buffer = []
                discarding = newline == nil
                try body(.oversized(byteCount: seen))
                continue
            }
            guard newline != nil else {
                // Grow in steps, but never past the cap: an unfinished line of at most
                // `maximumLineLength` bytes then takes at most that much memory.
                if seen > buffer.capacity {
                    buffer.reserveCapacity(min(maximumLineLength, max(seen, 2 * buffer.capacity)))
                }
                buffer.append(contentsOf: segment)
                continue
            }
            var line: [UInt8]
            if buffer.isEmpty {
                line = Array(segment)
            } else {
                buffer.append(contentsOf: segment)
                line = buffer
                buffer = []
            }
            if stripsCarriageReturn, line.last == 0x0D {
                line.removeLast()
            }
            try body(.line(line))
        }
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
}
