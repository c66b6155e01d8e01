#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BridgeCore
import Foundation
import Testing
import ThreadSupport

/// Runs `work` on a thread with a 512 KiB stack (a secondary thread's default on Apple systems)
/// and returns its result: a recursion that is not bounded crashes here instead of passing.
func onSmallStack<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    DedicatedThread.start(name: "test-small-stack", stackSize: 512 * 1024 * sanitizerStackFactor) {
        let value = work()
        result.withLock { $0 = value }
        done.signal()
    }
    // A bound so a hang fails the test instead of stalling the run; the work takes milliseconds.
    guard done.wait(timeout: .now() + 120) == .success else { return nil }
    return result.current
}

/// How much larger a stack must be for the same recursion under a sanitizer: Thread Sanitizer
/// and Address Sanitizer make every frame several times larger (`swift test --sanitize=thread`
/// overflowed the 512 KiB stack at depth 256). 1 in an ordinary build, where the 512 KiB claim
/// is what is tested.
let sanitizerStackFactor: Int = {
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    let instrumented = dlsym(handle, "__tsan_init") != nil || dlsym(handle, "__asan_init") != nil
    return instrumented ? 8 : 1
}()

/// The two ways the host reads JSON must agree on `text`: the syntax check refuses exactly what
/// `JSONParser` refuses; a message the fast path validates is the one `JSONDecoder` decodes from
/// the parsed value; and the codec (what `BridgeHost.receive` uses) gives that same result.
func decodedBothWays(_ text: String) throws -> Result<BridgeMessage, BridgeMessageCodec.DecodeFailure> {
    let data = Data(text.utf8)
    let problem = JSONSyntaxCheck.firstProblem(in: data)
    let value = JSONParser.parse(data)
    #expect((problem == nil) == (value != nil), "syntax check and parser disagree on \(text)")
    let codec = BridgeMessageCodec().decode(data)
    if let value {
        let viaDecoder = try? JSONDecoder().decode(BridgeMessage.self, from: JSONEncoder().encode(value))
        #expect(BridgeMessage(validating: value) == viaDecoder, "fast path and JSONDecoder disagree on \(text)")
        #expect((try? codec.get()) == viaDecoder)
    }
    return codec
}

private func event(data: String) -> String {
    #"{"version":"1.0","correlationId":"e1","type":"event","timestamp":1,"payload":{"action":"x","data":"# + data + "}}"
}

/// docs/bridge-protocol.md, section 2, "One JSON rule": what the journey's `JSON.parse` would
/// read, or a clear refusal, on every path. Page: Security, "Incoming Message Decoding".
@Suite("One JSON rule for every decoding path (Security: Incoming Message Decoding)")
struct JSONRuleTests {
    @Test("0e1 and its spellings are numbers: accepted as 0, as JSON.parse reads them")
    func zeroWithExponent() throws {
        let message = try decodedBothWays(event(data: #"{"a":0e1,"b":0E+1,"c":-0e-1,"d":[0e1]}"#)).get()
        #expect(message.payload.data == ["a": 0, "b": 0, "c": 0, "d": [0]])
    }

    @Test("a number too small for a Double becomes 0, as JSON.parse reads it")
    func underflow() throws {
        let message = try decodedBothWays(event(data: #"{"a":123.456e-789,"b":123e-10000000,"c":-1e-400}"#)).get()
        #expect(message.payload.data == ["a": 0, "b": 0, "c": 0])
    }

    @Test("a number too large for a Double is refused, naming it and where it is")
    func overflow() throws {
        let text = event(data: #"{"a":1e400}"#)
        let failure = try #require(try decodedBothWays(text).failure)
        #expect(failure.reason == "invalid JSON at line 1, column 104: the number 1e400 is too large to represent")
    }

    @Test("with a key twice, the last value wins, as JSON.parse reads it, at any level")
    func duplicateKeys() throws {
        let text = #"{"version":"1.0","correlationId":"first","correlationId":"last","type":"event","timestamp":1,"payload":{"action":"x","data":{"k":1,"k":2}}}"#
        let message = try decodedBothWays(text).get()
        #expect(message.correlationId == "last")
        #expect(message.payload.data == ["k": 2])
        // The last wins even when it makes the message invalid, and the reason says which field.
        let spoiled = #"{"version":"1.0","correlationId":"a","type":"event","type":"Event","timestamp":1,"payload":{"action":"x"}}"#
        #expect(try decodedBothWays(spoiled).failure?.reason == #"field 'type' must be one of "request", "response", "event" (got "Event")"#)
    }

    @Test("a message that is not valid is refused for its field, whatever numbers or duplicate keys it spells", arguments: [
        #""timestamp":0e1"#, #""timestamp":123.456e-789"#, #""timestamp":1,"timestamp":2"#,
    ])
    func reasonIsTheField(timestamp: String) throws {
        // These used to reach JSONDecoder as text, which called them "not valid JSON".
        let text = #"{"version":"1.0","correlationId":"a","type":"event","# + timestamp + #","payload":{"action":""}}"#
        #expect(try decodedBothWays(text).failure?.reason == "field 'payload.action' must not be empty")
    }

    @Test("a duplicate key and 0e1 in one message: accepted (both were refused as 'not valid JSON')")
    func duplicateKeyAndZeroExponent() throws {
        let message = try decodedBothWays(event(data: #"{"k":1,"k":0e1}"#)).get()
        #expect(message.payload.data == ["k": 0])
    }

    @Test("a lone surrogate escape is refused as such, with its line and column, never 'must be an array'", arguments: [
        (#""\ud800""#, 105, "lone UTF-16 surrogate '\\ud800' in a string: a high surrogate must be followed by a low one (\\udc00-\\udfff)"),
        (#""a\uD800\u0041""#, 106, "lone UTF-16 surrogate '\\ud800' in a string: a high surrogate must be followed by a low one (\\udc00-\\udfff)"),
        (#""\udc00""#, 105, "lone UTF-16 surrogate '\\udc00' in a string: a low surrogate is only valid right after a high one (\\ud800-\\udbff)"),
    ])
    func loneSurrogate(value: String, column: Int, reason: String) throws {
        let failure = try #require(try decodedBothWays(event(data: #"{"s":"# + value + "}")).failure)
        #expect(failure.reason == "invalid JSON at line 1, column \(column): \(reason)")
        // A pair is one character.
        let pair = try decodedBothWays(event(data: #"{"s":"\ud83d\ude00"}"#)).get()
        #expect(pair.payload.data == ["s": "😀"])
    }

    @Test("the refusal reason for a message with deep data names the field, without a deep JSONDecoder recursion")
    func deepDataReason() throws {
        let deep = String(repeating: "[", count: 96) + String(repeating: "]", count: 96)
        let text = #"{"version":"1.0","correlationId":"a","type":"response","timestamp":1,"payload":{"action":"x","data":{"d":"# + deep
            + #"},"status":"done"}}"#
        let reason = onSmallStack { BridgeMessageCodec().decode(Data(text.utf8)).failure?.reason }
        #expect(reason == #"field 'payload.status' must be one of "success", "error", "cancelled", "unsupported" (got "done")"#)
    }

    @Test("maxDepth has a ceiling: 100,000 is taken as the ceiling, and 100,000 levels are refused, not a crash")
    func depthCeiling() throws {
        #expect(BridgeMessageCodec(maxDepth: 100_000).maxDepth == BridgeMessageCodec.maximumDepth)
        var codec = BridgeMessageCodec()
        codec.maxDepth = 100_000
        #expect(codec.maxDepth == 128)
        codec.maxDepth = 0
        #expect(codec.maxDepth == 1)
        let levels = 100_000
        let text = String(repeating: #"{"k":"#, count: levels) + "1" + String(repeating: "}", count: levels)
        let data = Data(text.utf8)
        let outcome = onSmallStack { () -> [String] in
            [
                BridgeMessageCodec(maxDepth: levels).decode(data).failure?.reason ?? "accepted",
                JSONSyntaxCheck.firstProblem(in: data, maxDepth: levels)?.reason ?? "accepted",
                JSONParser.parse(data, maxDepth: levels) == nil ? "refused" : "accepted",
            ]
        }
        #expect(outcome == [
            "invalid JSON at line 1, column 641: nesting is deeper than 128 levels",
            "nesting is deeper than 256 levels", "refused",
        ])
        // At the ceiling itself, a message decodes on a small stack.
        let atCeiling = #"{"version":"1.0","correlationId":"a","type":"event","timestamp":1,"payload":{"action":"x","data":{"d":"#
            + String(repeating: "[", count: 125) + String(repeating: "]", count: 125) + "}}}"
        let decoded = onSmallStack { (try? BridgeMessageCodec(maxDepth: 128).decode(Data(atCeiling.utf8)).get()) != nil }
        #expect(decoded == true)
    }
}

extension Result {
    /// The error of a failure, or `nil`.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
