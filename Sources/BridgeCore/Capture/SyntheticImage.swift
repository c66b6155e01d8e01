import Foundation

/// Makes real, valid PNG images of any size without an image library: for simulated captures
/// and for answering a capture slot by hand from the inspector.
///
/// ``png(width:height:)`` is a grey gradient stored uncompressed (deflate "stored" blocks), so
/// a 1920×1080 image is about 2 MB: a payload as heavy as its pixel count, for tests of large
/// messages. ``capturePNG(_:width:height:)`` draws a plausible capture (an identity card on a
/// desk, a face) and compresses it: tens of kilobytes, what the inspector sends when a person
/// completes a capture slot without choosing an image file.
///
/// ```swift
/// let png = SyntheticImage.png(width: 640, height: 480)
/// slot.complete(.document(DocumentCaptureResult(imageData: png, width: 640, height: 480, mimeType: "image/png")))
/// ```
public enum SyntheticImage {
    /// The largest side accepted, to keep a typo from allocating gigabytes.
    public static let maxSide = 8192

    /// A greyscale PNG of `width`×`height` pixels (each clamped to 1...``maxSide``).
    public static func png(width: Int, height: Int) -> Data {
        let width = min(max(width, 1), maxSide)
        let height = min(max(height, 1), maxSide)
        var raw = [UInt8]()
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            for column in 0..<width {
                raw.append(UInt8(truncatingIfNeeded: (column * 255 / max(width - 1, 1) + row * 64 / max(height - 1, 1)) / 2 + 32))
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 0, 0, 0, 0]  // 8-bit greyscale, deflate, no filter, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", zlibStored(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: data[offset..<offset + length])
            offset += length
        } while offset < data.count
        out += bigEndian(adler32(data))
        return out
    }

    static func appendChunk(_ type: String, _ body: [UInt8], to png: inout Data) {
        let typeBytes = Array(type.utf8)
        png.append(contentsOf: bigEndian(UInt32(body.count)))
        png.append(contentsOf: typeBytes)
        png.append(contentsOf: body)
        png.append(contentsOf: bigEndian(crc32(typeBytes + body)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
