import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorTUI
import Testing

/// Real, tiny image files made in the test (no image library needed).
enum TestImages {
    /// A real 3×2 baseline JPEG (JFIF, SOF0), 287 bytes, as ImageMagick writes it.
    static let jpeg3x2 = hex(
        "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e40"
            + "4457453738506d51575f626768673e4d71797064785c656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363"
            + "636363636363636363636363636363636363636363636363636363636363ffc00011080002000303012200021101031101ffc40015000101000000000000000000"
            + "00000000000005ffc40014100100000000000000000000000000000000ffc4001501010100000000000000000000000000000506ffc40014110100000000000000"
            + "000000000000000000ffda000c03010002110311003f008a00b5e3ffd9")

    /// A real PNG of `width`×`height`.
    static func png(width: Int, height: Int) -> Data { SyntheticImage.png(width: width, height: height) }

    static func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes)
    }
}

/// Issue 13, trap 8: `slot … --image FILE` reported 1280×720 for any file.
@Suite("Image headers")
struct ImageHeaderTests {
    static func size(_ bytes: Data) -> String {
        switch ImageHeader.read(bytes) {
        case .success(let header): return "\(header.mimeType) \(header.width)x\(header.height)"
        case .failure(let problem): return problem.reason
        }
    }

    @Test("A real PNG's size and type come from its IHDR chunk")
    func png() {
        #expect(Self.size(TestImages.png(width: 3, height: 2)) == "image/png 3x2")
        #expect(Self.size(TestImages.png(width: 1, height: 8192)) == "image/png 1x8192")
    }

    @Test("A real JPEG's size comes from its frame header, past APPn, DQT and fill bytes; progressive too")
    func jpeg() throws {
        let jpeg = TestImages.jpeg3x2
        #expect(Self.size(jpeg) == "image/jpeg 3x2")
        // An APP1 segment (as Exif puts there) and fill bytes before the frame header.
        var withApp1 = Data(jpeg.prefix(2))
        withApp1 += Data([0xFF, 0xE1, 0x00, 0x08]) + Data("Exif\0\0".utf8)
        withApp1 += Data([0xFF, 0xFF, 0xFF]) + jpeg.dropFirst(2)
        #expect(Self.size(withApp1) == "image/jpeg 3x2")
        // SOF2 (progressive) in place of SOF0.
        var progressive = jpeg
        let sof = try #require(jpeg.range(of: Data([0xFF, 0xC0])))
        progressive[sof.lowerBound + 1] = 0xC2
        #expect(Self.size(progressive) == "image/jpeg 3x2")
        // A data slice (not starting at index 0) reads the same.
        let slice = (Data([0, 0, 0]) + jpeg).dropFirst(3)
        #expect(Self.size(slice) == "image/jpeg 3x2")
    }

    @Test(
        "Anything else, or a cut-off or hostile header, is refused with a reason, never a crash or a hang",
        arguments: [
            ("", "not a PNG or JPEG"), ("GIF89a\u{3}\0\u{2}\0", "not a PNG or JPEG"),
            ("\0\0\0\u{18}ftypheic", "not a PNG or JPEG"), ("\u{FF}", "not a PNG or JPEG"),
        ])
    func notAnImage(text: String, reason: String) {
        #expect(Self.size(Data(text.utf8)).contains(reason))
    }

    @Test("Cut-off and hostile PNG and JPEG headers are refused")
    func hostile() {
        let png = TestImages.png(width: 3, height: 2)
        let jpeg = TestImages.jpeg3x2
        let cases: [(Data, String)] = [
            (png.prefix(8), "a PNG whose header is cut off"), (png.prefix(23), "a PNG whose header is cut off"),
            (png.prefix(12) + Data("IDAT".utf8) + png.dropFirst(16), "a PNG whose header is cut off"),
            (png.prefix(16) + Data([0, 0, 0, 0]) + png.dropFirst(20), "a PNG whose header gives a size of 0×2"),
            (Data([0xFF, 0xD8]), "a JPEG whose header is cut off"), (Data([0xFF, 0xD8, 0xFF]), "a JPEG whose header is cut off"),
            (Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]), "a JPEG whose header is cut off"),
            (Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]), "a JPEG whose header is cut off"),  // length 0: would not move on
            (Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]), "a JPEG whose header is cut off"),
            (Data([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00]), "a JPEG whose header is cut off"),  // a length past the end
            (Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08]), "a JPEG whose header is cut off"),  // scan data before any frame header
            (Data([0xFF, 0xD8, 0x12, 0x34]), "a JPEG whose header is cut off"),  // not a marker
            (Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x04, 0x08, 0x00]), "a JPEG whose header is cut off"),  // a frame header too short
            (jpeg.prefix(0xA5), "a JPEG whose header is cut off"),  // cut inside the frame header
            (Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x00, 0x03]), "a JPEG whose header gives a size of 3×0"),
            (Data([0xFF, 0xD8]) + Data(repeating: 0xFF, count: 100_000), "a JPEG whose header is cut off"),
            (Data([0xFF, 0xD8]) + Data(Array(repeating: [UInt8(0xFF), 0x01], count: 100_000).joined()), "a JPEG whose header is cut off"),
        ]
        for (bytes, reason) in cases {
            #expect(Self.size(bytes).hasPrefix(reason), "\(bytes.count) bytes: \(Self.size(bytes))")
        }
    }

    @Test("Random bytes after a PNG or JPEG signature never crash the reader")
    func fuzz() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let starts = [Data([0xFF, 0xD8]), TestImages.png(width: 1, height: 1).prefix(8), TestImages.jpeg3x2.prefix(0x9E)]
        for round in 0..<3000 {
            let tail = Data((0..<(round % 64)).map { _ in round % 3 == 0 ? [0xFF, 0xC0, 0x00, 0x02][Int(next()) % 4] : next() })
            _ = ImageHeader.read(starts[round % starts.count] + tail)
        }
    }

    @Test("SlotImageFile takes the size and type from the bytes, not the name, and refuses sides larger than the host accepts")
    func slotImageFile() {
        let jpegNamedPNG = SlotImageFile.image(path: "photo.png", bytes: TestImages.jpeg3x2)
        #expect((try? jpegNamedPNG.get()).map { "\($0.mimeType) \($0.width)x\($0.height)" } == "image/jpeg 3x2")
        let heic = SlotImageFile.image(path: "/tmp/passport.heic", bytes: Data("\0\0\0\u{18}ftypheic".utf8))
        guard case .failure(let problem) = heic else {
            Issue.record("a HEIC file was taken")
            return
        }
        #expect(problem.description.hasPrefix("/tmp/passport.heic: not a PNG or JPEG image"))
        #expect(problem.description.contains("only PNG and JPEG can be sent"))
        // A header claiming 9000 pixels wide (the host refuses more than 8192 on a side).
        var wide = Data(TestImages.png(width: 1, height: 1))
        wide.replaceSubrange(16..<20, with: [0, 0, 0x23, 0x28])
        #expect(SlotImageFile.image(path: "w.png", bytes: wide) == .failure(.unusable(path: "w.png", reason: "the image is 9000×1 pixels; the host accepts at most 8192 on a side")))
    }

    @Test("The slot dialog fills width and height from the file read, and refuses a file that is not PNG or JPEG, by its content")
    func slotDialogSize() throws {
        let png = try HostileValuesTests.imageFile("scan.jpg", bytes: TestImages.png(width: 37, height: 23))  // a PNG, whatever its name
        var model = HostileValuesTests.dialogOnImageField()
        model.type(png)
        model.press(.tab)
        let dialog = try #require(slotDialog(model))
        #expect(dialog.width.text == "37" && dialog.height.text == "23")
        #expect(model.screen.contains { $0.contains("✓ ready: Enter sends scan.jpg (37×23 image/png,") }, "\(model.screen)")
        #expect(previewLines(model).contains(#"      "imageWidth": 37,"#), "\(previewLines(model))")
        let effects = model.press(.enter)
        guard case .send(.completeSlot(let args), _)? = effects.first, case .success(_, let w, let h, let mime) = args.result else {
            Issue.record("nothing sent: \(effects)")
            return
        }
        #expect(w == 37 && h == 23 && mime == "image/png")

        let text = try HostileValuesTests.imageFile("notes.png", bytes: Data("hello".utf8))
        var refused = HostileValuesTests.dialogOnImageField(width: 200, height: 40)
        refused.type(text)
        #expect(refused.press(.enter).isEmpty)
        #expect(refused.screen.contains { $0.contains("✗ image file notes.png: not a PNG or JPEG image") }, "\(refused.screen)")
    }
}
