import Testing
import WebKitRunnerCore

@Suite struct LineBufferTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func splitsLinesAcrossChunks() {
        var buffer = LineBuffer()
        #expect(buffer.append(bytes("{\"a\":")) == [])
        #expect(buffer.append(bytes("1}\n{\"b\"")) == [.line(bytes("{\"a\":1}"))])
        #expect(buffer.append(bytes(":2}\n\n{\"c\":3}\n")) == [.line(bytes("{\"b\":2}")), .line([]), .line(bytes("{\"c\":3}"))])
        #expect(buffer.pendingByteCount == 0)
        #expect(buffer.finish() == [])
    }

    @Test func lastLineWithoutNewlineComesOutAtTheEnd() {
        var buffer = LineBuffer()
        #expect(buffer.append(bytes("one\ntwo")) == [.line(bytes("one"))])
        #expect(buffer.finish() == [.line(bytes("two"))])
        #expect(buffer.finish() == [])
    }

    @Test func keepsCarriageReturnsAndMultibyteCharacters() {
        var buffer = LineBuffer()
        let line = bytes("é\u{2028}x\r")
        var pieces: [LineBuffer.Piece] = []
        for byte in line + [10] { pieces += buffer.append([byte]) }  // one byte at a time
        #expect(pieces == [.line(line)])
    }

    @Test func aLineOverTheLimitIsDroppedAndReportedWithItsLength() {
        var buffer = LineBuffer(maximumLineLength: 10)
        #expect(buffer.append(bytes("0123456789\n")) == [.line(bytes("0123456789"))])
        #expect(buffer.append(bytes("012345")) == [])
        #expect(buffer.append(bytes("6789ab")) == [])
        #expect(buffer.pendingByteCount == 12)
        #expect(buffer.append(bytes("cd\nok\n")) == [.tooLong(byteCount: 14), .line(bytes("ok"))])
        #expect(buffer.append(bytes("0123456789abc")) == [])
        #expect(buffer.finish() == [.tooLong(byteCount: 13)])
    }

    @Test func theProtocolLimitIs256MiB() {
        #expect(LineBuffer().maximumLineLength == 256 * 1024 * 1024)
    }

    @Test func manyMiBLineInSmallChunks() {
        var buffer = LineBuffer()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024)
        for _ in 0..<80 { #expect(buffer.append(chunk).isEmpty) }
        let pieces = buffer.append([10])
        guard case let .line(line)? = pieces.first else {
            Issue.record("no line: \(pieces.count) pieces")
            return
        }
        #expect(pieces.count == 1)
        #expect(line.count == 80 * 64 * 1024)
    }
}
