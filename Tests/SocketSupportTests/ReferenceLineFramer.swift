#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SocketSupport

/// `LineFramer` as it was before it could keep its buffer and lend its lines (issue 30), kept
/// unchanged as the reference the equivalence tests compare the framer with.
struct ReferenceLineFramer {
    let maximumLineLength: Int
    let stripsCarriageReturn: Bool

    private var buffer: [UInt8] = []
    private var discarding = false

    init(maximumLineLength: Int, stripsCarriageReturn: Bool = true) {
        self.maximumLineLength = max(1, maximumLineLength)
        self.stripsCarriageReturn = stripsCarriageReturn
    }

    var bufferedByteCount: Int { buffer.count }
    var bufferedCapacity: Int { buffer.capacity }
    var isSkippingOversizedLine: Bool { discarding }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (LineFramer.Frame) throws -> Void) rethrows {
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
}
