import BridgeCore
import Foundation

/// The messages the benchmarks feed the host: what a web journey sends, 200 to 300 bytes each.
///
/// Three in four are events (journey progress, analytics); one in four is a request to the
/// custom capability `device.info`, which a handler answers, so the host also encodes and sends
/// a response for it. Every message has its own correlation id.
enum Workload {
    /// The custom capability the requests go to.
    static let requestAction = "device.info"
    /// One message in this many is a request.
    static let requestEvery = 4

    /// Whether message `index` is a request.
    static func isRequest(_ index: Int) -> Bool { index % requestEvery == requestEvery - 1 }

    /// The number of requests among the first `count` messages.
    static func requestCount(_ count: Int) -> Int { count / requestEvery }

    private static let steps = ["document-front", "document-back", "selfie", "liveness", "review", "consent"]

    /// Message `index`, with a correlation id that starts with `prefix` and ends with the index.
    static func message(_ index: Int, prefix: String = "m") -> String {
        let timestamp = 1_732_240_000_000 + index
        if isRequest(index) {
            return #"{"version":"1.0","correlationId":"\#(prefix)-\#(index)","type":"request","timestamp":\#(timestamp),"#
                + #""payload":{"action":"device.info","data":{"fields":["model","os","locale","screen"],"reason":"journey-start","#
                + #""sessionId":"b7e4c2a0-5d1f-4e3a-9c8b-2f6a1d0e9b47","attempt":\#(index % 3 + 1)}}}"#
        }
        let step = steps[index % steps.count]
        return #"{"version":"1.0","correlationId":"\#(prefix)-\#(index)","type":"event","timestamp":\#(timestamp),"#
            + #""payload":{"action":"journey.step","data":{"step":"\#(step)","index":\#(index % 97),"elapsedMs":\#(index % 60_000),"#
            + #""sessionId":"b7e4c2a0-5d1f-4e3a-9c8b-2f6a1d0e9b47","ok":true,"locale":"en-GB"}}}"#
    }

    /// Messages `0..<count` as the bytes the host receives.
    static func messages(_ count: Int, prefix: String = "m") -> [Data] {
        (0..<count).map { Data(message($0, prefix: prefix).utf8) }
    }

    /// A message of about `bytes` bytes: an event carrying a base64-like image, as a capture
    /// result from the journey would.
    static func largeMessage(bytes: Int, id: String) -> Data {
        let head = #"{"version":"1.0","correlationId":"\#(id)","type":"event","timestamp":1732240000000,"payload":{"action":"journey.upload","data":{"mime":"image/jpeg","image":""#
        let tail = #""}}}"#
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let fill = max(0, bytes - head.utf8.count - tail.utf8.count)
        var data = Data(capacity: bytes)
        data.append(contentsOf: head.utf8)
        var generator = SplitMix(seed: 42)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var remaining = fill
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            for index in 0..<count { chunk[index] = alphabet[Int(generator.next() & 63)] }
            data.append(contentsOf: chunk[0..<count])
            remaining -= count
        }
        data.append(contentsOf: tail.utf8)
        return data
    }
}

/// A tiny deterministic random generator (payload bytes must not compress to nothing).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A journey transport that keeps nothing: it counts what the host delivers.
@MainActor
final class DiscardingTransport: JourneyTransport {
    private(set) var deliveries = 0
    private(set) var responses = 0

    func deliver(_ delivery: JourneyDelivery) throws {
        deliveries += 1
        if delivery.message.type == .response { responses += 1 }
    }
}

/// A delegate that does what developers do today without an inspector: print every message.
///
/// `print(message, to:)` into a buffered file, exactly as `print` to a redirected stdout.
@MainActor
final class PrintLoggingDelegate: BridgeHostDelegate {
    private var stream: FileStream

    init(path: String) throws {
        stream = try FileStream(path: path)
    }

    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        print("bridge received:", message, to: &stream)
    }

    func close() { stream.close() }
}

/// A `TextOutputStream` on a C stdio file (buffered like stdout redirected to a file).
struct FileStream: TextOutputStream {
    private var file: UnsafeMutablePointer<FILE>?

    init(path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot open \(path) for writing") }
        self.file = file
    }

    mutating func write(_ string: String) {
        guard let file else { return }
        fputs(string, file)
    }

    mutating func close() {
        if let file { fclose(file) }
        file = nil
    }
}

/// Makes a host as an app would: a journey attached and one custom capability that answers.
@MainActor
func makeBenchHost(transport: DiscardingTransport) -> BridgeHost {
    let host = BridgeHost(hostVersion: "1.0.0")
    host.registerCustomCapability(Workload.requestAction, version: "1.0") { _, responder in
        responder.respond(status: .success, data: ["model": "Bench", "os": "Linux", "locale": "en-GB", "screen": "1170x2532"])
    }
    host.attach(transport)
    return host
}
