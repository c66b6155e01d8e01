import Foundation

/// Splits a byte stream into lines without their `\n`; a line longer than `maximumLineBytes` is
/// skipped to its end and replaced by an `error` event line that says so.
struct LineSplitter {
    let maximumLineBytes: Int
    private var pending: [UInt8] = []
    private var skipping = false

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Adds `bytes` and hands every completed line to `handle`, in order.
    mutating func append(_ bytes: ArraySlice<UInt8>, _ handle: (Data) -> Void) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if skipping {
                skipping = false
                handle(Self.skippedLine(maximumLineBytes))
            } else if pending.count + (newline - start) > maximumLineBytes {
                handle(Self.skippedLine(maximumLineBytes))
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                handle(Data(pending))
            }
            pending.removeAll(keepingCapacity: pending.count < 1 << 20)
            start = newline + 1
        }
        guard !skipping else { return }
        pending.append(contentsOf: bytes[start...])
        if pending.count > maximumLineBytes {
            skipping = true
            pending = []
        }
    }

    private static func skippedLine(_ limit: Int) -> Data {
        Data(#"{"kind":"error","text":"the runner wrote a line of more than \#(limit) bytes; it was skipped"}"#.utf8)
    }
}
