/// A small zlib (RFC 1950) compressor for PNG scanlines: one deflate block (RFC 1951) with the
/// fixed Huffman codes, whose only back references are to the pixel just before and to the
/// same place in the scanline above. That finds what a drawn picture repeats (flat areas and
/// rows like the one above) without a search, in one pass, holding two scanlines at a time.
///
/// Feed it every scanline of the image (filter byte first), in order, then ``finish()``:
///
/// ```swift
/// var deflater = ScanlineDeflater(stride: 1 + width * 3, bytesPerPixel: 3)
/// for row in rows { deflater.append(row) }
/// let idat = deflater.finish()
/// ```
struct ScanlineDeflater {
    /// The bytes of one scanline, its filter byte included.
    let stride: Int
    /// How far back the pixel before is.
    let bytesPerPixel: Int
    private var previous: [UInt8] = []
    private var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var adlerA: UInt32 = 1
    private var adlerB: UInt32 = 0

    /// The longest match deflate can say.
    private static let maxMatch = 258
    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385,
        24577,
    ]
    private static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// A compressor for scanlines of `stride` bytes (at most 32,768, deflate's window) and
    /// pixels of `bytesPerPixel` bytes.
    init(stride: Int, bytesPerPixel: Int) {
        self.stride = min(max(stride, 1), 32_768)
        self.bytesPerPixel = max(bytesPerPixel, 1)
        writeBits(1, count: 1)  // the final block
        writeBits(1, count: 2)  // fixed Huffman codes
    }

    /// Compresses one scanline of ``stride`` bytes (a shorter or longer one is cut or padded
    /// with zeros, so the stream stays a valid image).
    mutating func append(_ given: [UInt8]) {
        var row = Array(given.prefix(stride))
        if row.count < stride { row += [UInt8](repeating: 0, count: stride - row.count) }
        for byte in row {
            adlerA = (adlerA + UInt32(byte)) % 65521
            adlerB = (adlerB + adlerA) % 65521
        }
        let above = previous.count == stride
        var index = 0
        while index < stride {
            let limit = min(Self.maxMatch, stride - index)
            var best = 0
            var distance = 0
            if above {
                var length = 0
                while length < limit, row[index + length] == previous[index + length] { length += 1 }
                (best, distance) = (length, stride)
            }
            if index >= bytesPerPixel {
                var length = 0
                while length < limit, row[index + length] == row[index + length - bytesPerPixel] { length += 1 }
                if length > best { (best, distance) = (length, bytesPerPixel) }
            }
            if best >= 3 {
                writeMatch(length: best, distance: distance)
                index += best
            } else {
                writeLiteral(Int(row[index]))
                index += 1
            }
        }
        previous = row
    }

    /// The whole zlib stream: the block's end, then the Adler-32 of everything appended.
    mutating func finish() -> [UInt8] {
        writeLiteral(256)
        if bitCount > 0 { writeBits(0, count: 8 - bitCount) }
        let adler = adlerB << 16 | adlerA
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// A literal byte (0...255) or the end of the block (256) in the fixed code.
    private mutating func writeLiteral(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, length: 8)
        case 144...255: writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    private mutating func writeMatch(length: Int, distance: Int) {
        let lengthCode = (Self.lengthBases.lastIndex { $0 <= length }) ?? 0
        writeLiteral(257 + lengthCode)
        writeBits(UInt64(length - Self.lengthBases[lengthCode]), count: Self.lengthExtraBits[lengthCode])
        let distanceCode = (Self.distanceBases.lastIndex { $0 <= distance }) ?? 0
        writeCode(distanceCode, length: 5)
        writeBits(UInt64(distance - Self.distanceBases[distanceCode]), count: Self.distanceExtraBits[distanceCode])
    }

    /// A Huffman code: its most significant bit first.
    private mutating func writeCode(_ code: Int, length: Int) {
        var reversed: UInt64 = 0
        for bit in 0..<length where code >> bit & 1 == 1 { reversed |= 1 << UInt64(length - 1 - bit) }
        writeBits(reversed, count: length)
    }

    /// Other values: least significant bit first.
    private mutating func writeBits(_ value: UInt64, count: Int) {
        guard count > 0 else { return }
        bitBuffer |= (value & ((1 << UInt64(count)) - 1)) << UInt64(bitCount)
        bitCount += count
        while bitCount >= 8 {
            out.append(UInt8(bitBuffer & 0xFF))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }
}
