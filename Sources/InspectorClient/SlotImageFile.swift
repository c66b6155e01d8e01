import BridgeCore
import Foundation

/// An image file chosen to complete a capture slot, read once, checked against the one size
/// limit that `bridge-inspector slot ... complete --image FILE` and the interactive inspector's
/// slot dialog share. Only PNG and JPEG files are taken: their width, height and media type are
/// read from the bytes (``ImageHeader``), so the journey is told the truth about the image.
///
/// Read the file when the person commits to it (leaves the field, presses Enter, runs the
/// command), never while drawing, and send the bytes it holds:
///
/// ```swift
/// switch SlotImageFile.read(path: "~/passport.jpg") {
/// case .success(let file):
///     let result = InspectorCommand.SlotResult.success(
///         imageBase64: file.bytes.base64EncodedString(), width: file.width, height: file.height, mimeType: file.mimeType)
/// case .failure(let problem):
///     print(problem.description)  // "passport.jpg: no such file"
/// }
/// ```
public struct SlotImageFile: Sendable, Equatable {
    /// The largest image file sent, in bytes (11 MiB): its base64 (4/3 as long) must fit, with the
    /// rest of the command, in one 16 MiB command frame, which the agent refuses beyond that.
    public static let maxBytes = 11 * 1024 * 1024

    /// The path as given (for messages).
    public var path: String
    /// The file's bytes.
    public var bytes: Data
    /// The media type reported to the journey, from the bytes: `image/png` or `image/jpeg`.
    public var mimeType: String
    /// The image's width in pixels, from its header.
    public var width: Int
    /// The image's height in pixels, from its header.
    public var height: Int

    /// Why an image file cannot be sent.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing is at the path.
        case missing(path: String)
        /// Something is there, but not a file that can be read (a directory, a device, no
        /// permission).
        case unreadable(path: String)
        /// The file holds more than ``SlotImageFile/maxBytes``.
        case tooLarge(path: String, bytes: Int)
        /// The file is not a PNG or JPEG whose size can be read, or is larger on a side than the
        /// host accepts; `reason` says which.
        case unusable(path: String, reason: String)

        /// One sentence naming the path and what is wrong, with the limit when it is the size.
        public var description: String { describing(as: path) }

        /// The path given to ``SlotImageFile/read(path:)``.
        public var path: String {
            switch self {
            case .missing(let path), .unreadable(let path), .tooLarge(let path, _), .unusable(let path, _): return path
            }
        }

        /// ``description`` with `name` in place of the path: for a narrow place, such as the
        /// slot dialog, where the file's name says enough and a long path would push out the
        /// reason.
        public func describing(as name: String) -> String {
            switch self {
            case .missing: return "\(name): no such file"
            case .unreadable: return "\(name): cannot read the file"
            case .tooLarge(_, let bytes): return "\(name) is \(bytes) bytes; at most \(SlotImageFile.maxBytes) can be sent"
            case .unusable(_, let reason): return "\(name): \(reason)"
            }
        }
    }

    /// Reads the regular file at `path` (`~` is expanded), refusing anything larger than
    /// ``maxBytes`` without reading more than that, and anything that is not a regular file
    /// (reading a FIFO or a device could block or never end).
    public static func read(path: String) -> Result<SlotImageFile, Problem> {
        let expanded = (path as NSString).expandingTildeInPath
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: expanded)
        } catch {
            return .failure(FileManager.default.fileExists(atPath: expanded) ? .unreadable(path: path) : .missing(path: path))
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else { return .failure(.unreadable(path: path)) }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maxBytes {
            return .failure(.tooLarge(path: path, bytes: size))
        }
        guard let handle = FileHandle(forReadingAtPath: expanded) else { return .failure(.unreadable(path: path)) }
        defer { try? handle.close() }
        // One byte more than the limit tells a file that grew since it was measured.
        let bytes: Data
        do {
            bytes = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            return .failure(.unreadable(path: path))
        }
        guard bytes.count <= maxBytes else { return .failure(.tooLarge(path: path, bytes: bytes.count)) }
        return image(path: path, bytes: bytes)
    }

    /// `bytes` as the image file at `path`, with the size and media type its header gives;
    /// refused unless it is a PNG or JPEG no larger on a side than the host accepts.
    public static func image(path: String, bytes: Data) -> Result<SlotImageFile, Problem> {
        let header: ImageHeader
        switch ImageHeader.read(bytes) {
        case .success(let read): header = read
        case .failure(let problem): return .failure(.unusable(path: path, reason: problem.reason))
        }
        guard header.width <= SyntheticImage.maxSide, header.height <= SyntheticImage.maxSide else {
            return .failure(.unusable(path: path, reason: "the image is \(header.width)×\(header.height) pixels; the host accepts at most \(SyntheticImage.maxSide) on a side"))
        }
        return .success(SlotImageFile(path: path, bytes: bytes, mimeType: header.mimeType, width: header.width, height: header.height))
    }
}
