import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recorded inspector session: what `bridge-inspector record` writes and `bridge-inspector
/// open` reads.
///
/// The file is JSON Lines. The first line is a header,
///
/// ```json
/// {"kind":"recording","version":1,"socket":"/run/user/1000/bridge-inspector/demo.4242.sock","startedAt":1795314691752,"client":"bridge-inspector record"}
/// ```
///
/// and every later line is one frame exactly as the agent sent it (its bytes, unchanged): the
/// `hello`, the `snapshot`, then every `event` and `gap` (docs/inspector-protocol.md). Feeding the
/// frames to a ``LiveState`` in order rebuilds what a live inspector saw.
///
/// A recording of a host followed by name (`record --host NAME`) spans several runs of it: when
/// the host process ends and a new one of that name is attached, a marker line of its own kind
/// comes before the new process's `hello`,
///
/// ```json
/// {"kind":"hostRestarted","time":1795314699000,"host":"my-app","endedPid":4211,"attachedPid":4302,"socket":"/run/user/1000/bridge-inspector/my-app.4302.sock"}
/// ```
///
/// (``HostRestart``); readers keep it in ``Contents/restarts``, not among the frames.
///
/// Reading is forgiving: everything up to the first line that cannot be read is loaded, and the
/// ``Problem`` says where it broke (a recording cut off while it was written ends in a partial
/// line; a damaged one has a line that is not a frame).
///
/// ```swift
/// let (frames, problem) = Recording.read(from: URL(fileURLWithPath: "session.jsonl"))
/// var state = LiveState()
/// for frame in frames { state.apply(frame) }
/// if let problem { print("line \(problem.line): \(problem.reason)") }
/// ```
public enum Recording {
    /// The version of the format this code writes and reads.
    public static let formatVersion = 1
    /// The header's `kind`.
    public static let headerKind = "recording"

    /// The first line of a recording.
    public struct Header: Sendable, Hashable {
        /// The format version.
        public var version: Int
        /// The socket the session was recorded from.
        public var socket: String
        /// When recording started, in milliseconds since 1970.
        public var startedAt: Double
        /// The program that wrote it.
        public var client: String

        /// Creates a header.
        public init(version: Int = Recording.formatVersion, socket: String, startedAt: Double, client: String = "bridge-inspector record") {
            self.version = version
            self.socket = socket
            self.startedAt = startedAt
            self.client = client
        }

        /// The header line (without its newline), keys in the documented order.
        public var line: [UInt8] {
            var writer = JSONWriter()
            writer.objectStart()
            writer.key("kind"); writer.string(Recording.headerKind)
            writer.key("version"); writer.number(version)
            writer.key("socket"); writer.string(socket)
            writer.key("startedAt"); writer.number(startedAt)
            writer.key("client"); writer.string(client)
            writer.objectEnd()
            return writer.bytes
        }
    }

    /// The marker line `record --host NAME` writes when the followed host was run again.
    public struct HostRestart: Sendable, Hashable {
        /// The line's `kind`.
        public static let kind = "hostRestarted"
        /// When the new process was attached, in milliseconds since 1970.
        public var time: Double
        /// The host's name (as the new process greeted; untrusted).
        public var host: String
        /// The pid of the process that ended.
        public var endedPid: Int
        /// The pid of the process attached now.
        public var attachedPid: Int
        /// The new process's socket.
        public var socket: String
        /// The number of frames read before the marker: the new process's frames start there.
        public var beforeFrame: Int

        /// Creates a marker.
        public init(time: Double, host: String, endedPid: Int, attachedPid: Int, socket: String, beforeFrame: Int = 0) {
            self.time = time
            self.host = host
            self.endedPid = endedPid
            self.attachedPid = attachedPid
            self.socket = socket
            self.beforeFrame = beforeFrame
        }

        /// The marker line (without its newline), keys in the documented order.
        public var line: [UInt8] {
            var writer = JSONWriter()
            writer.objectStart()
            writer.key("kind"); writer.string(Self.kind)
            writer.key("time"); writer.number(time)
            writer.key("host"); writer.string(host)
            writer.key("endedPid"); writer.number(endedPid)
            writer.key("attachedPid"); writer.number(attachedPid)
            writer.key("socket"); writer.string(socket)
            writer.objectEnd()
            return writer.bytes
        }

        fileprivate struct Fields: Decodable {
            var kind: String
            var time: Double
            var host: String
            var endedPid: Int
            var attachedPid: Int
            var socket: String
        }

        /// The marker `line` holds, or `nil` when it is not one.
        static func parse(_ line: ArraySlice<UInt8>, beforeFrame: Int) -> HostRestart? {
            guard case .object(let fields)? = JSONParser.parse(line, maxDepth: 2),
                case .string(Self.kind)? = fields["kind"],
                let decoded = try? JSONDecoding.decode(Fields.self, from: JSONValue.object(fields))
            else { return nil }
            return HostRestart(
                time: decoded.time, host: decoded.host, endedPid: decoded.endedPid, attachedPid: decoded.attachedPid,
                socket: decoded.socket, beforeFrame: beforeFrame)
        }
    }

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

        /// Creates contents (for a caller that has frames from elsewhere).
        public init(header: Header?, frames: [AgentFrame], problem: Problem?, linesRead: Int) {
            self.header = header
            self.frames = frames
            self.problem = problem
            self.linesRead = linesRead
        }
    }

    /// The frames of the recording at `url`, and where it broke (`nil` when it was read entirely).
    /// Never throws: a file that cannot be opened is a problem at line 0.
    public static func read(from url: URL) -> (frames: [AgentFrame], problem: (line: Int, reason: String)?) {
        let contents = load(from: url)
        return (contents.frames, contents.problem.map { ($0.line, $0.reason) })
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

/// Writes a recording, one line at a time, straight to the file (nothing is held in a buffer,
/// so a recording stopped in any way loses at most the line being written).
public final class RecordingWriter {
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    /// Lines written so far, header included.
    public private(set) var linesWritten = 0

    /// Creates (or truncates) the file at `path` and writes `header`; `-` writes to standard output.
    public init(path: String, header: Recording.Header) throws {
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw RecordingWriteError(path: path, code: errno) }
            ownsDescriptor = true
        }
        self.path = path
        try write(line: header.line)
    }

    private let path: String

    deinit {
        close()
    }

    /// Appends one line (a newline is added).
    public func write(line: [UInt8]) throws {
        var bytes = line
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw RecordingWriteError(path: path, code: errno)
            }
            offset += written
        }
        linesWritten += 1
    }

    /// Closes the file (idempotent).
    public func close() {
        if ownsDescriptor, descriptor >= 0 {
            _ = {
                #if canImport(Darwin)
                Darwin.close(descriptor)
                #else
                Glibc.close(descriptor)
                #endif
            }()
        }
        descriptor = -1
    }
}

/// A recording could not be written.
public struct RecordingWriteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    public var description: String {
        "cannot write the recording \(path): \(String(cString: strerror(code)))"
    }
}

/// A subscribed connection to an agent that hands out every frame together with its exact line,
/// the agent's `hello` first: what `bridge-inspector record` needs to store frames verbatim.
///
/// The handshake and its errors are those of ``InspectorSession``.
public final class RawFrameStream {
    /// The agent's greeting.
    public let hello: AgentHello
    /// The socket this stream is connected to, or `tcp://HOST:PORT` (never the token).
    public let socketPath: String

    private let connection: UnixConnection
    private var framer = LineFramer(maximumLineLength: WireProtocol.maxAgentFrameBytes)
    private var buffered: [(line: [UInt8], frame: AgentFrame)] = []

    /// Connects, reads the agent's hello and subscribes, waiting at most `timeout` seconds.
    public convenience init(socketPath: String, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        try self.init(endpoint: .unixSocket(path: socketPath), clientName: clientName, timeout: timeout)
    }

    /// Connects to `endpoint` (over TCP: sends the token first), then as
    /// ``init(socketPath:clientName:timeout:)``.
    public init(endpoint: InspectorEndpoint, clientName: String = "bridge-inspector record", timeout: Double = 5) throws {
        let socketPath = endpoint.description
        self.socketPath = socketPath
        connection = try endpoint.open(timeout: timeout)
        let deadline = Date().addingTimeInterval(timeout)
        var hello: AgentHello?
        while hello == nil {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw InspectorClientError.handshakeTimedOut(socketPath: socketPath) }
            guard let bytes = try connection.read(upTo: 64 * 1024, timeoutMilliseconds: PollTimeout.milliseconds(seconds: remaining)) else {
                throw InspectorClientError.closed(socketPath: socketPath)
            }
            for piece in framer.feed(bytes) {
                guard case .line(let line) = piece, let frame = try? AgentFrame.decode(Data(line)) else {
                    throw InspectorClientError.notAnAgent(socketPath: socketPath)
                }
                if case .hello(let value) = frame, hello == nil {
                    hello = value
                } else if case .reply(_, .failure(let error), _) = frame {
                    throw endpoint.refusal(error)
                }
                buffered.append((line, frame))
            }
        }
        guard let hello else { throw InspectorClientError.notAnAgent(socketPath: socketPath) }
        guard hello.protocol == WireProtocol.version else {
            throw InspectorClientError.refused(
                InspectorError(.protocolMismatch, "the host's agent speaks protocol \(hello.protocol); this bridge-inspector speaks \(WireProtocol.version)"))
        }
        self.hello = hello
        try connection.writeAll(Array(ClientHello(client: clientName, subscribe: true).frame()), timeoutMilliseconds: PollTimeout.milliseconds(seconds: timeout))
    }

    deinit {
        connection.close()
    }

    /// The descriptor to poll for reading.
    public var fileDescriptor: Int32 { connection.rawValue }

    /// Closes the connection.
    public func close() {
        connection.close()
    }

    /// The next frame and its exact line, waiting at most `timeout` seconds; `nil` on timeout.
    /// Throws ``InspectorClientError/closed(socketPath:)`` when the agent has gone, and
    /// ``InspectorClientError/badFrame(detail:)`` for a line that is not a frame.
    public func next(timeout: Double) throws -> (line: [UInt8], frame: AgentFrame)? {
        let deadline = Date().addingTimeInterval(timeout)
        while buffered.isEmpty {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            let bytes: [UInt8]?
            do {
                bytes = try connection.read(upTo: 256 * 1024, timeoutMilliseconds: max(1, PollTimeout.milliseconds(seconds: remaining)))
            } catch {
                throw InspectorClientError.closed(socketPath: socketPath)
            }
            guard let bytes else { throw InspectorClientError.closed(socketPath: socketPath) }
            for piece in framer.feed(bytes) {
                switch piece {
                case .line(let line):
                    do {
                        buffered.append((line, try AgentFrame.decode(Data(line))))
                    } catch {
                        throw InspectorClientError.badFrame(detail: "\(error)")
                    }
                case .oversized(let count):
                    throw InspectorClientError.badFrame(detail: "a frame longer than \(count) bytes")
                }
            }
        }
        return buffered.removeFirst()
    }
}
