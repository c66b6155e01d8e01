import BridgeCore
import Foundation
import Testing

/// Issue 27, trap 4 (a): the image sent when a person completes a capture slot without choosing
/// a file is small and realistic, a real PNG: its chunks check out, its data inflates to exactly
/// the scanlines its header promises, and it weighs tens of kilobytes, far under the 1 MiB where
/// the inspector's large-payload check begins (the uncompressed synthetic PNG of 1280×720 it
/// replaces was 1.2 MB of Base64).
@Suite("Synthetic capture images")
struct SyntheticCaptureImageTests {
    /// The large-payload threshold of the inspector's linter (ProtocolLinter.largePayloadBytes).
    static let largePayloadBytes = 1 << 20

    @Test("the default document and selfie images are valid PNGs of a plausible size, tens of kilobytes", arguments: CaptureCapability.Kind.allCases)
    func defaultCaptureImage(kind: CaptureCapability.Kind) throws {
        let size = SyntheticImage.defaultSize(for: kind)
        #expect(kind == .document ? size.width > size.height : size.height > size.width, "a card is landscape, a face portrait")
        let png = SyntheticImage.capturePNG(kind, width: size.width, height: size.height)
        let image = try PNGReader.read(png)
        #expect(image.width == size.width && image.height == size.height)
        #expect(image.colourType == 2 && image.bitDepth == 8, "8-bit RGB")
        #expect(image.scanlines.count == (1 + size.width * 3) * size.height)
        #expect(png.count < 100_000, "\(png.count) bytes")
        #expect(png.base64EncodedString().utf8.count * 4 < Self.largePayloadBytes, "well under the large-payload lint")
        // A picture, not a blank: several colours.
        var colours = Set<[UInt8]>()
        let stride = 1 + size.width * 3
        for row in Swift.stride(from: 0, to: size.height, by: max(1, size.height / 40)) {
            for x in Swift.stride(from: 0, to: size.width, by: max(1, size.width / 40)) {
                let at = row * stride + 1 + x * 3
                colours.insert(Array(image.scanlines[at..<at + 3]))
            }
        }
        #expect(colours.count >= 4, "\(colours.count) colours")
    }

    @Test("any size from 1×1 to a wide one inflates to its scanlines; sides are clamped to 1...maxSide")
    func sizes() throws {
        for (width, height) in [(1, 1), (2, 3), (37, 23), (3000, 20)] {
            let image = try PNGReader.read(SyntheticImage.capturePNG(.selfie, width: width, height: height))
            #expect(image.width == width && image.height == height)
            #expect(image.scanlines.count == (1 + width * 3) * height)
        }
        let clamped = try PNGReader.read(SyntheticImage.capturePNG(.document, width: 0, height: -4))
        #expect(clamped.width == 1 && clamped.height == 1)
    }
}

/// Reads what a test needs of a PNG: the IHDR fields and the inflated IDAT, checking every
/// chunk's CRC and the zlib stream's Adler-32. Inflates stored and fixed-Huffman blocks (what
/// `SyntheticImage` writes); a dynamic block is a test failure.
enum PNGReader {
    struct Image {
        var width: Int
        var height: Int
        var bitDepth: UInt8
        var colourType: UInt8
        var scanlines: [UInt8]
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ data: Data) throws -> Image {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Problem(description: "no PNG signature") }
        var offset = 8
        var header: [UInt8] = []
        var idat: [UInt8] = []
        var ended = false
        while offset + 12 <= bytes.count {
            let length = Int(be32(bytes, offset))
            guard offset + 12 + length <= bytes.count else { throw Problem(description: "a chunk runs past the end") }
            let typeAndBody = Array(bytes[offset + 4..<offset + 8 + length])
            guard crc32(typeAndBody) == be32(bytes, offset + 8 + length) else { throw Problem(description: "bad CRC") }
            let type = String(decoding: typeAndBody.prefix(4), as: UTF8.self)
            let body = Array(typeAndBody.dropFirst(4))
            switch type {
            case "IHDR": header = body
            case "IDAT": idat += body
            case "IEND": ended = true
            default: break
            }
            offset += 12 + length
        }
        guard ended, header.count == 13 else { throw Problem(description: "no IHDR or IEND") }
        let scanlines = try inflate(zlib: idat)
        return Image(width: Int(be32(header, 0)), height: Int(be32(header, 4)), bitDepth: header[8], colourType: header[9], scanlines: scanlines)
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// RFC 1950 and 1951, stored and fixed-Huffman blocks only.
    static func inflate(zlib: [UInt8]) throws -> [UInt8] {
        guard zlib.count >= 6, (UInt16(zlib[0]) << 8 | UInt16(zlib[1])) % 31 == 0, zlib[0] & 0x0F == 8 else { throw Problem(description: "bad zlib header") }
        var position = 16  // in bits
        func bit() throws -> Int {
            guard position / 8 < zlib.count else { throw Problem(description: "the stream ends early") }
            let value = Int(zlib[position / 8] >> UInt8(position % 8)) & 1
            position += 1
            return value
        }
        func bits(_ count: Int) throws -> Int {
            var value = 0
            for index in 0..<count { value |= try bit() << index }
            return value
        }
        func code(_ length: Int) throws -> Int {
            var value = 0
            for _ in 0..<length { value = value << 1 | (try bit()) }
            return value
        }
        let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        let distanceBases = [
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
        ]
        let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
        var out: [UInt8] = []
        var final = 0
        repeat {
            final = try bit()
            switch try bits(2) {
            case 0:
                position = (position + 7) / 8 * 8
                let length = try bits(16)
                _ = try bits(16)
                for _ in 0..<length { out.append(UInt8(try bits(8))) }
            case 1:
                while true {
                    // Fixed codes: 7 bits for 256-279, 8 for 0-143 and 280-287, 9 for 144-255.
                    var symbol = try code(7)
                    if symbol <= 0x17 {
                        symbol += 256
                    } else {
                        symbol = symbol << 1 | (try bit())
                        if (0x30...0xBF).contains(symbol) {
                            symbol -= 0x30
                        } else if (0xC0...0xC7).contains(symbol) {
                            symbol = symbol - 0xC0 + 280
                        } else {
                            symbol = (symbol << 1 | (try bit())) - 0x190 + 144
                        }
                    }
                    if symbol < 256 {
                        out.append(UInt8(symbol))
                        continue
                    }
                    if symbol == 256 { break }
                    let index = symbol - 257
                    guard index < lengthBases.count else { throw Problem(description: "bad length code") }
                    let length = lengthBases[index] + (try bits(lengthExtra[index]))
                    let distanceCode = try code(5)
                    guard distanceCode < distanceBases.count else { throw Problem(description: "bad distance code") }
                    let distance = distanceBases[distanceCode] + (try bits(distanceExtra[distanceCode]))
                    guard distance <= out.count else { throw Problem(description: "a distance before the start") }
                    for _ in 0..<length { out.append(out[out.count - distance]) }
                }
            default:
                throw Problem(description: "a block type this reader does not inflate")
            }
        } while final == 0
        let end = (position + 7) / 8
        guard end + 4 <= zlib.count else { throw Problem(description: "no Adler-32") }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in out {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        guard b << 16 | a == be32(zlib, end) else { throw Problem(description: "bad Adler-32") }
        return out
    }
}
