import BridgeCore
import Foundation
import InspectorProtocol

/// Reading a recording: the one reader, forgiving (see ``Recording``).
extension Recording {
    /// Where a recording stopped being readable.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line number in the file (0: the file itself could not be read).
        public var line: Int
        /// What is wrong there.
        public var reason: String

        /// Creates a problem.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
    }

    /// What could be read from a recording.
    public struct Contents: Sendable {
        /// The header (`nil` for a file that starts directly with frames, or an unreadable one).
        public var header: Header?
        /// The frames, in order, up to the first line that could not be read.
        public var frames: [AgentFrame]
        /// Where reading stopped early, or `nil` when the whole file was read.
        public var problem: Problem?
        /// The number of lines read successfully (header included).
        public var linesRead: Int
        /// Where the followed host was run again, in order (`record --host NAME`).
        public var restarts: [HostRestart] = []
        /// The rows marked in the inspector that saved the recording (`w`), in file order.
        public var marks: [Mark] = []

        /// Creates contents (for a caller that has frames from elsewhere).
        public init(header: Header?, frames: [AgentFrame], problem: Problem?, linesRead: Int) {
            self.header = header
            self.frames = frames
            self.problem = problem
            self.linesRead = linesRead
        }
    }

    /// Everything readable in the recording at `url` (a file that cannot be opened is a problem
    /// at line 0 with no frames).
    public static func load(from url: URL) -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason: String
            if !FileManager.default.fileExists(atPath: url.path) {
                reason = "no such file (make a recording with `bridge-inspector record FILE`)"
            } else {
                reason = "cannot read the file (\((error as NSError).localizedDescription))"
            }
            return Contents(header: nil, frames: [], problem: Problem(line: 0, reason: reason), linesRead: 0)
        }
        return load(data: data)
    }

    /// Everything readable in a recording's bytes.
    public static func load(data: Data) -> Contents {
        var contents = Contents(header: nil, frames: [], problem: nil, linesRead: 0)
        let bytes = [UInt8](data)
        guard !bytes.isEmpty else {
            contents.problem = Problem(line: 1, reason: "the file is empty: not a recording")
            return contents
        }
        let endsWithNewline = bytes.last == 0x0A
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if endsWithNewline { lines.removeLast() }
        var sawFirst = false
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            var line = rawLine
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                contents.linesRead = number
                continue
            }
            let isLast = index == lines.count - 1
            let cutOff = isLast && !endsWithNewline
            if !sawFirst {
                sawFirst = true
                switch header(in: line) {
                case .header(let header):
                    guard header.version <= formatVersion else {
                        contents.problem = Problem(
                            line: number,
                            reason: "recording format version \(header.version) is newer than this bridge-inspector reads (\(formatVersion)); update bridge-inspector")
                        return contents
                    }
                    contents.header = header
                    contents.linesRead = number
                    continue
                case .frame:
                    break
                case .neither(let reason):
                    contents.problem = Problem(line: number, reason: cutOff ? "the file is cut off in its first line" : "not a bridge-inspector recording: \(reason)")
                    return contents
                }
            }
            switch decodeFrame(line) {
            case .success(let frame):
                contents.frames.append(frame)
                contents.linesRead = number
            case .failure(let reason):
                if !cutOff, let restart = HostRestart.parse(line, beforeFrame: contents.frames.count) {
                    contents.restarts.append(restart)
                    contents.linesRead = number
                    continue
                }
                if !cutOff {
                    switch Mark.parse(line) {
                    case .mark(let mark):
                        contents.marks.append(mark)
                        contents.linesRead = number
                        continue
                    case .garbled(let reason):
                        contents.problem = Problem(line: number, reason: reason + "; the lines before it were loaded")
                        return contents
                    case .notAMark:
                        break
                    }
                }
                contents.problem = Problem(
                    line: number,
                    reason: cutOff
                        ? "the last line is cut off (the recording stopped while it was being written); everything before it was loaded"
                        : "not a readable frame (\(reason)); the lines before it were loaded")
                return contents
            }
        }
        if !sawFirst { contents.problem = Problem(line: 1, reason: "the file holds only blank lines: not a recording") }
        return contents
    }

    private enum FirstLine {
        case header(Header)
        case frame
        case neither(String)
    }

    private struct Probe: Decodable {
        var kind: String?
        var version: Int?
        var socket: String?
        var startedAt: Double?
        var client: String?

        static let fields: Set<String> = ["kind", "version", "socket", "startedAt", "client"]
    }

    private static func header(in line: ArraySlice<UInt8>) -> FirstLine {
        let value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(line, maxDepth: WireProtocol.maxAgentFrameDepth)
        } catch {
            return .neither("the first line is not JSON (column \(error.column): \(error.reason))")
        }
        // Read with the host's JSON rule (JSONParser), like every frame; only the header's own
        // fields are decoded.
        guard case .object(let fields) = value,
            let probe = try? JSONDecoding.decode(Probe.self, from: JSONValue.object(fields.filter { Probe.fields.contains($0.key) }))
        else {
            return .neither("the first line is not a JSON object with a \"kind\"")
        }
        switch probe.kind {
        case headerKind?:
            return .header(Header(version: probe.version ?? formatVersion, socket: probe.socket ?? "", startedAt: probe.startedAt ?? 0, client: probe.client ?? ""))
        case "hello"?, "snapshot"?, "event"?, "gap"?, "reply"?:
            return .frame
        default:
            return .neither("the first line should be {\"kind\":\"recording\",...}")
        }
    }

    private static func decodeFrame(_ line: ArraySlice<UInt8>) -> Result<AgentFrame, FrameProblem> {
        // Frames wrap a message a few levels deeper than the host's own limit.
        do throws(JSONDecoding.Failure) {
            return .success(try AgentFrame.read(Data(line)))
        } catch {
            switch error {
            case .invalidJSON(let problem):
                return .failure(FrameProblem(description: "invalid JSON at column \(problem.column): \(problem.reason)"))
            case .wrongContent(let problem):
                return .failure(FrameProblem(description: ReplyRuleFileError(problem).description))
            }
        }
    }

    private struct FrameProblem: Error, CustomStringConvertible {
        var description: String
    }
}
