import Foundation
import Testing

@testable import JourneyWebKit

@Suite("WebKit runner lines")
struct LineSplitterTests {
    private func lines(_ chunks: [String], maximum: Int = 100) -> [String] {
        var splitter = LineSplitter(maximumLineBytes: maximum)
        var out: [String] = []
        for chunk in chunks { splitter.append(ArraySlice(Array(chunk.utf8))) { out.append(String(decoding: $0, as: UTF8.self)) } }
        return out
    }

    @Test func splitsLinesAcrossChunks() {
        #expect(lines(["ab", "c\nde", "f\n\ng"]) == ["abc", "def", ""])
    }

    @Test func oneByteAtATimeGivesTheSameLines() {
        let text = "{\"kind\":\"viewDestroyed\"}\n{\"kind\":\"error\",\"text\":\"x\"}\n"
        #expect(lines(text.map { String($0) }) == lines([text]))
    }

    @Test func aLineOverTheLimitIsReplacedByAnErrorAndTheNextLineSurvives() throws {
        let out = lines([String(repeating: "x", count: 60), String(repeating: "y", count: 60), "\nnext\n"], maximum: 100)
        #expect(out.count == 2)
        let event = try WebKitRunnerEvent(line: Data(out[0].utf8))
        guard case .error(let text) = event else { Issue.record("not an error event: \(event)"); return }
        #expect(text.contains("more than 100 bytes"))
        #expect(out[1] == "next")
    }
}

@Suite("WebKit runner protocol")
struct WebKitRunnerProtocolTests {
    @Test func commandsAreOneJSONLineEach() throws {
        let line = try WebKitRunnerCommand.evaluate(seq: 3, script: "window.GBGBridge.receive({\"a\":\"\\n\"});", probe: nil).line()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["kind"] as? String == "evaluate")
        #expect(object["seq"] as? Int == 3)
        #expect(object["script"] as? String == "window.GBGBridge.receive({\"a\":\"\\n\"});")
        #expect(object["probe"] == nil)
    }

    @Test func startCarriesHandlersScriptsAndTheAddress() throws {
        let line = try WebKitRunnerCommand.start(handler: "gbgBridge", extraHandlers: ["tap"], userScripts: ["a", "b"], uri: "file:///x/index.html").line()
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["kind"] as? String == "start")
        #expect(object["userScripts"] as? [String] == ["a", "b"])
        #expect(object["extraHandlers"] as? [String] == ["tap"])
    }

    @Test func eventsDecode() throws {
        #expect(try WebKitRunnerEvent(line: Data(#"{"kind":"post","handler":"gbgBridge","text":"{}"}"#.utf8)) == .post(handler: "gbgBridge", text: "{}"))
        #expect(try WebKitRunnerEvent(line: Data(#"{"kind":"evaluated","seq":2,"probe":"\"noOp\""}"#.utf8)) == .evaluated(seq: 2, probe: "\"noOp\""))
        #expect(try WebKitRunnerEvent(line: Data(#"{"kind":"load","event":"committed","uri":"file:///a"}"#.utf8)) == .load(event: "committed", uri: "file:///a"))
    }

    @Test func aLineThatIsNoEventSaysWhy() {
        #expect(throws: WebKitRunnerEvent.LineError.self) { try WebKitRunnerEvent(line: Data("hello".utf8)) }
        do {
            _ = try WebKitRunnerEvent(line: Data(#"{"kind":"post","handler":"gbgBridge"}"#.utf8))
            Issue.record("a post without text decoded")
        } catch {
            #expect("\(error)".contains("without \"text\""))
        }
        do {
            _ = try WebKitRunnerEvent(line: Data(#"{"kind":"teleport"}"#.utf8))
            Issue.record("an unknown kind decoded")
        } catch {
            #expect("\(error)".contains("unknown kind \"teleport\""))
        }
    }
}
