import Foundation

/// Plausible capture images: what the inspector sends for a capture slot when a person does not
/// choose an image file. A real camera capture is a JPEG of a few hundred kilobytes; a synthetic
/// one the size of its pixels (``SyntheticImage/png(width:height:)``, 1.2 MB of Base64 at
/// 1280×720) would trip the large-payload check and is not what a journey gets from an app. These
/// are drawn (an identity card on a desk, a face and shoulders), in colour, and compressed to tens
/// of kilobytes: a real, valid PNG whose header gives the size asked for.
///
/// ```swift
/// let size = SyntheticImage.defaultSize(for: .document)  // 1280×808
/// let png = SyntheticImage.capturePNG(.document, width: size.width, height: size.height)
/// slot.complete(.document(DocumentCaptureResult(imageData: png, width: size.width, height: size.height, mimeType: "image/png")))
/// ```
extension SyntheticImage {
    /// The size a capture of `kind` is made at unless another is asked for: a document is
    /// 1280×808 (an ID-1 card, 85.60 × 53.98 mm, cropped to 1280 pixels wide), a selfie 720×960
    /// (a 3:4 portrait from a front camera).
    public static func defaultSize(for kind: CaptureCapability.Kind) -> (width: Int, height: Int) {
        switch kind {
        case .document: return (1280, 808)
        case .selfie: return (720, 960)
        }
    }

    /// A colour PNG of `width`×`height` pixels (each clamped to 1...``maxSide``) drawing a
    /// capture of `kind`, compressed: about 36 KB at the default document size.
    public static func capturePNG(_ kind: CaptureCapability.Kind, width: Int, height: Int) -> Data {
        let width = min(max(width, 1), maxSide)
        let height = min(max(height, 1), maxSide)
        let shapes = kind == .document ? documentShapes : selfieShapes
        let stride = 1 + width * 3
        var deflater = ScanlineDeflater(stride: stride, bytesPerPixel: 3)
        var row = [UInt8](repeating: 0, count: stride)
        for y in 0..<height {
            for shape in shapes {
                guard let (from, to) = shape.span(row: y, width: width, height: height) else { continue }
                for x in from..<to {
                    row[1 + x * 3] = shape.colour.r
                    row[2 + x * 3] = shape.colour.g
                    row[3 + x * 3] = shape.colour.b
                }
            }
            deflater.append(row)
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        appendChunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0], to: &png)  // 8-bit RGB
        appendChunk("IDAT", deflater.finish(), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// An identity card on a dark desk: a blue header band, a photo, lines of text, two
    /// machine-readable lines.
    private static let documentShapes: [CaptureShape] = {
        let ink = CaptureShape.Colour(52, 58, 68)
        var shapes: [CaptureShape] = [
            .rect(0, 0, 1, 1, .init(62, 66, 74)),
            .rect(0.03, 0.04, 0.97, 0.96, .init(236, 240, 245)),
            .rect(0.03, 0.04, 0.97, 0.17, .init(38, 92, 160)),
            .rect(0.07, 0.08, 0.45, 0.13, .init(230, 236, 246)),
            .rect(0.07, 0.24, 0.31, 0.78, .init(176, 184, 194)),
            .ellipse(0.19, 0.82, 0.10, 0.14, .init(70, 80, 100)),
            .ellipse(0.19, 0.45, 0.06, 0.13, .init(214, 170, 140)),
            .rect(0.07, 0.78, 0.31, 0.96, .init(236, 240, 245)),
        ]
        for (line, length) in [0.38, 0.30, 0.44, 0.24, 0.34].enumerated() {
            let top = 0.26 + Double(line) * 0.1
            shapes.append(.rect(0.36, top, 0.36 + length, top + 0.04, ink))
        }
        shapes.append(.rect(0.07, 0.83, 0.93, 0.865, .init(90, 96, 106)))
        shapes.append(.rect(0.07, 0.89, 0.93, 0.925, .init(90, 96, 106)))
        return shapes
    }()

    /// A face and shoulders against a pale wall.
    private static let selfieShapes: [CaptureShape] = [
        .rect(0, 0, 1, 1, .init(196, 204, 212)),
        .rect(0.43, 0.55, 0.57, 0.78, .init(206, 158, 128)),
        .ellipse(0.5, 1.02, 0.45, 0.28, .init(52, 72, 110)),
        .ellipse(0.5, 0.37, 0.25, 0.22, .init(60, 44, 36)),
        .ellipse(0.5, 0.43, 0.2, 0.19, .init(222, 174, 142)),
        .ellipse(0.42, 0.40, 0.025, 0.012, .init(40, 40, 48)),
        .ellipse(0.58, 0.40, 0.025, 0.012, .init(40, 40, 48)),
        .rect(0.45, 0.51, 0.55, 0.52, .init(160, 80, 80)),
    ]
}

/// One filled shape of a synthetic capture, in fractions of the image's width and height, so a
/// picture scales to any size.
private struct CaptureShape {
    struct Colour {
        var r, g, b: UInt8
        init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }
    }

    enum Outline {
        case rect(x0: Double, y0: Double, x1: Double, y1: Double)
        case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
    }

    var outline: Outline
    var colour: Colour

    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ colour: Colour) -> CaptureShape {
        CaptureShape(outline: .rect(x0: x0, y0: y0, x1: x1, y1: y1), colour: colour)
    }

    static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, _ colour: Colour) -> CaptureShape {
        CaptureShape(outline: .ellipse(cx: cx, cy: cy, rx: rx, ry: ry), colour: colour)
    }

    /// The pixels `from..<to` the shape covers on row `y` of a `width`×`height` image, if any.
    func span(row y: Int, width: Int, height: Int) -> (Int, Int)? {
        let w = Double(width)
        let h = Double(height)
        let centre = Double(y) + 0.5
        let left: Double
        let right: Double
        switch outline {
        case .rect(let x0, let y0, let x1, let y1):
            guard centre >= y0 * h, centre < y1 * h else { return nil }
            (left, right) = (x0 * w, x1 * w)
        case .ellipse(let cx, let cy, let rx, let ry):
            guard rx > 0, ry > 0 else { return nil }
            let dy = (centre - cy * h) / (ry * h)
            guard abs(dy) < 1 else { return nil }
            let half = rx * w * (1 - dy * dy).squareRoot()
            (left, right) = (cx * w - half, cx * w + half)
        }
        let from = min(max(Int(left.rounded()), 0), width)
        let to = min(max(Int(right.rounded()), 0), width)
        return from < to ? (from, to) : nil
    }
}
