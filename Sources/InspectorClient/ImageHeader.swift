import Foundation

/// The kind and pixel size of an image file, read from its header: PNG (the IHDR chunk) and JPEG
/// (the first SOFn frame header, after any APPn, DQT, DHT... segments). Anything else is refused.
///
/// Reading never trusts the file: every length is checked against the bytes there are, and each
/// step of the JPEG walk moves forward, so a cut-off or hostile file ends in a refusal, not a
/// crash or a hang.
///
/// ```swift
/// switch ImageHeader.read(bytes) {
/// case .success(let header): print(header.mimeType, header.width, header.height)  // image/png 640 480
/// case .failure(let problem): print(problem.reason)  // "not a PNG or JPEG image; ..."
/// }
/// ```
public struct ImageHeader: Sendable, Equatable {
    /// `image/png` or `image/jpeg`, from the bytes (never from the file name).
    public var mimeType: String
    /// Width in pixels, at least 1.
    public var width: Int
    /// Height in pixels, at least 1.
    public var height: Int

    /// Why the bytes do not give a usable image size.
    public struct Problem: Error, Sendable, Equatable {
        /// A sentence fragment saying what is wrong, for after the file's name.
        public var reason: String
    }

    /// The media type of a PNG.
    public static let png = "image/png"
    /// The media type of a JPEG.
    public static let jpeg = "image/jpeg"

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The header of the image `bytes` hold.
    public static func read(_ bytes: Data) -> Result<ImageHeader, Problem> {
        let prefix = [UInt8](bytes.prefix(8))
        if prefix == pngSignature { return png(bytes) }
        if prefix.count >= 2, prefix[0] == 0xFF, prefix[1] == 0xD8 { return jpeg(bytes) }
        return .failure(Problem(reason: "not a PNG or JPEG image (by its first bytes); only PNG and JPEG can be sent, as the size reported is read from the file"))
    }

    /// Big-endian unsigned integer of `count` bytes at `offset` (from the start of `bytes`), if all are there.
    private static func bigEndian(_ bytes: Data, at offset: Int, count: Int) -> Int? {
        guard offset >= 0, count > 0, offset <= bytes.count - count else { return nil }
        let start = bytes.startIndex + offset
        return bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func byte(_ bytes: Data, at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[bytes.startIndex + offset]
    }

    private static func sized(_ mimeType: String, _ width: Int, _ height: Int) -> Result<ImageHeader, Problem> {
        guard width > 0, height > 0 else {
            return .failure(Problem(reason: "a \(mimeType == png ? "PNG" : "JPEG") whose header gives a size of \(width)×\(height); it may be damaged"))
        }
        return .success(ImageHeader(mimeType: mimeType, width: width, height: height))
    }

    /// PNG: the signature, then the IHDR chunk (length 13, "IHDR", width and height as 4 bytes each).
    private static func png(_ bytes: Data) -> Result<ImageHeader, Problem> {
        guard bigEndian(bytes, at: 12, count: 4) == 0x4948_4452,  // "IHDR"
            let width = bigEndian(bytes, at: 16, count: 4), let height = bigEndian(bytes, at: 20, count: 4)
        else {
            return .failure(Problem(reason: "a PNG whose header is cut off or damaged (no IHDR chunk with the size)"))
        }
        return sized(png, width, height)
    }

    /// JPEG: segments after SOI (FF D8), each `FF marker [length]`, until a start-of-frame marker
    /// (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC), whose data is precision, height, width.
    private static func jpeg(_ bytes: Data) -> Result<ImageHeader, Problem> {
        let cutOff = Problem(reason: "a JPEG whose header is cut off or damaged (no frame header with the size)")
        var offset = 2
        while offset < bytes.count {
            guard byte(bytes, at: offset) == 0xFF else { return .failure(cutOff) }
            // Any number of 0xFF fill bytes may come before a marker.
            while byte(bytes, at: offset) == 0xFF { offset += 1 }
            guard let marker = byte(bytes, at: offset) else { return .failure(cutOff) }
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7, 0xD8:
                continue  // markers without a length
            case 0xD9, 0xDA:
                return .failure(cutOff)  // the image ends, or its data starts, before any frame header
            default:
                break
            }
            guard let length = bigEndian(bytes, at: offset, count: 2), length >= 2 else { return .failure(cutOff) }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7, let height = bigEndian(bytes, at: offset + 3, count: 2), let width = bigEndian(bytes, at: offset + 5, count: 2) else {
                    return .failure(cutOff)
                }
                return sized(jpeg, width, height)
            }
            offset += length  // at least 2: the walk always moves forward
        }
        return .failure(cutOff)
    }
}
