/// Splits the bytes read from the host into `\n`-terminated lines.
///
/// Why: standard input arrives in arbitrary chunks and a single line (a delivery carrying a large
/// payload) can be many MiB, so bytes are accumulated until a newline and only the new chunk is
/// scanned, never the bytes already held. How: `append` returns the complete pieces found so far;
/// `finish` (at end of file) returns a last unterminated line, if any. A line longer than
/// `maximumLineLength` bytes is not kept: its bytes are dropped as they arrive and it comes out as
/// `.tooLong` with its length once its newline (or end of file) is reached. The newline itself is
/// not part of a line; a `\r` before it is left to the JSON parser (it is whitespace there).
public struct LineBuffer: Sendable {
    /// One result of splitting.
    public enum Piece: Equatable, Sendable {
        /// A complete line, without its `\n`.
        case line([UInt8])
        /// A line that exceeded the limit and was dropped; `byteCount` is its full length.
        case tooLong(byteCount: Int)
    }

    /// The protocol's limit: a line over 256 MiB is an error.
    public static let protocolMaximumLineLength = 256 * 1024 * 1024

    public let maximumLineLength: Int
    private var pending: [UInt8] = []
    private var discardedByteCount: Int? = nil

    public init(maximumLineLength: Int = LineBuffer.protocolMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// The number of bytes held for the current, unfinished line.
    public var pendingByteCount: Int { discardedByteCount ?? pending.count }

    /// Adds a chunk and returns the lines it completed, in order.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) -> [Piece] where Bytes.Element == UInt8 {
        var pieces: [Piece] = []
        var rest = chunk[...]
        while !rest.isEmpty {
            if let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                take(rest[rest.startIndex..<newline])
                pieces.append(completeLine())
                rest = rest[rest.index(after: newline)...]
            } else {
                take(rest)
                break
            }
        }
        return pieces
    }

    /// End of input: returns the last line if it had no newline.
    public mutating func finish() -> [Piece] {
        if discardedByteCount == nil && pending.isEmpty { return [] }
        return [completeLine()]
    }

    private mutating func take<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let discarded = discardedByteCount {
            discardedByteCount = discarded + bytes.count
        } else if pending.count + bytes.count > maximumLineLength {
            discardedByteCount = pending.count + bytes.count
            pending = []
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func completeLine() -> Piece {
        defer {
            pending = []
            discardedByteCount = nil
        }
        if let discarded = discardedByteCount { return .tooLong(byteCount: discarded) }
        return .line(pending)
    }
}
