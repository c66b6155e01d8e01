import BridgeCore
import Foundation
import InspectorProtocol
import Testing

/// Commands are encoded once, straight into the frame, and read from the parsed value
/// (docs/inspector-protocol.md, "Commands"; the `invalid_arguments` example reply).
@Suite("Command frames: encoded once, decoded from the value")
struct InspectorCommandFrameTests {
    @Test("A frame holds the arguments with sorted keys, one line, and decodes back to the same command")
    func roundTrip() throws {
        let command = InspectorCommand.respond(.init(correlationId: "req-1", status: .success, data: ["ok": true, "n": 9.5]))
        let frame = try command.frame(id: "c1")
        #expect(String(decoding: frame, as: UTF8.self)
            == #"{"args":{"correlationId":"req-1","data":{"n":9.5,"ok":true},"status":"success"},"command":"respond","id":"c1","kind":"command"}"# + "\n")
        let envelope = try JSONDecoding.decode(CommandFrame.self, from: frame.dropLast())
        #expect(try InspectorCommand.decode(name: envelope.command, args: envelope.args).get() == command)
        #expect(String(decoding: try InspectorCommand.ping.frame(id: "p"), as: UTF8.self) == #"{"command":"ping","id":"p","kind":"command"}"# + "\n")
    }

    @Test("Wrong arguments are named with the one decoding sentence: the field, and what was expected")
    func wrongArguments() {
        let missing = InspectorCommand.decode(name: "respond", args: ["status": "success"])
        #expect(missing.failure?.message == #"arguments of 'respond': missing field "correlationId""#)
        let wrongType = InspectorCommand.decode(name: "setSlotEnabled", args: ["slot": "document", "enabled": "yes"])
        #expect(wrongType.failure?.message == "arguments of 'setSlotEnabled': enabled: expected true or false")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
