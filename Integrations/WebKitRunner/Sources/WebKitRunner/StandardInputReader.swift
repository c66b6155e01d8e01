import CWebKitGTK
import Glibc
import WebKitRunnerCore

/// Reads the host's commands from standard input inside the GLib main loop.
///
/// Why a GLib fd source: WebKitGTK must be driven from the thread that runs the main loop, so
/// input is read there too, between WebKit's own events, without a reader thread. How:
/// `g_unix_fd_add` calls back when the descriptor is readable (or hung up); each callback reads
/// one chunk of up to 1 MiB (so a huge line never starves WebKit), feeds it to a `LineBuffer`, and
/// hands each complete piece to `onPiece`. End of file (or a read error) flushes the last
/// unterminated line and calls `onEnd` once; the source then removes itself.
final class StandardInputReader {
    private let fileDescriptor: Int32
    private var lines: LineBuffer
    private let onPiece: (LineBuffer.Piece) -> Void
    private let onEnd: () -> Void
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var ended = false

    init(fileDescriptor: Int32, onPiece: @escaping (LineBuffer.Piece) -> Void, onEnd: @escaping () -> Void) {
        self.fileDescriptor = fileDescriptor
        self.lines = LineBuffer()
        self.onPiece = onPiece
        self.onEnd = onEnd
    }

    /// Adds the source to the default main context. The reader must stay alive while it runs.
    func start() {
        let condition = GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        g_unix_fd_add(fileDescriptor, condition, { _, _, userData in
            guard let userData else { return 0 }
            let reader = Unmanaged<StandardInputReader>.fromOpaque(userData).takeUnretainedValue()
            return reader.readChunk() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Reads once; `false` removes the source.
    private func readChunk() -> Bool {
        guard !ended else { return false }
        let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        if count <= 0 {
            if count < 0 { logLine("reading standard input failed: \(errnoText()); treating it as its end") }
            ended = true
            for piece in lines.finish() { onPiece(piece) }
            onEnd()
            return false
        }
        for piece in lines.append(buffer[0..<count]) {
            onPiece(piece)
            if ended { return false }
        }
        return true
    }

    /// Stops reading (after `quit`): later input is ignored.
    func stop() {
        ended = true
    }
}
