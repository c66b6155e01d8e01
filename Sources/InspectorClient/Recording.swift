import BridgeCore
import Foundation
import InspectorProtocol

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
/// A recording saved from the interactive inspector (`w`) ends with one line for each row the
/// person marked (`m`),
///
/// ```json
/// {"kind":"mark","frame":1,"seq":12}
/// ```
///
/// (``Mark``): the row the frame numbered `frame` (0-based, counting frames only, not the header
/// or marker lines) carried with sequence number `seq`. Readers keep them in ``Contents/marks``.
/// The marks come after every frame, so a reader older than marks loads every frame and stops
/// at the first mark line with a problem that says it is not a readable frame; a mark line this
/// reader cannot read (a `frame` or `seq` that is not a whole number of at least 0) is a problem
/// of its own, everything before it loaded; a mark that names no row of its frame is skipped.
///
/// Reading is forgiving: everything up to the first line that cannot be read is loaded, and the
/// ``Problem`` says where it broke (a recording cut off while it was written ends in a partial
/// line; a damaged one has a line that is not a frame).
///
/// ```swift
/// let contents = Recording.load(from: URL(fileURLWithPath: "session.jsonl"))
/// var state = LiveState()
/// for frame in contents.frames { state.apply(frame) }
/// if let problem = contents.problem { print(problem) }   // "line 7: the last line is cut off ..."
/// ```
///
/// This file is the format; ``load(from:)`` (Recording+Reading.swift) reads it and
/// ``RecordingWriter`` writes it.
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

    /// A row the person marked in the inspector, named by the frame that carried it and its
    /// sequence number in that frame (see the format above): the TUI's `w` writes one line for
    /// each, after the frames, and `open` marks the rows again.
    public struct Mark: Sendable, Hashable {
        /// The line's `kind`.
        public static let kind = "mark"
        /// The 0-based number of the frame that carried the row (frames only).
        public var frame: Int
        /// The row's sequence number (``LogEntry/seq``) in that frame.
        public var seq: Int

        /// Creates a mark.
        public init(frame: Int, seq: Int) {
            self.frame = frame
            self.seq = seq
        }

        /// The mark line (without its newline), keys in the documented order.
        public var line: [UInt8] {
            var writer = JSONWriter()
            writer.objectStart()
            writer.key("kind"); writer.string(Self.kind)
            writer.key("frame"); writer.number(frame)
            writer.key("seq"); writer.number(seq)
            writer.objectEnd()
            return writer.bytes
        }

        /// What a line is, as a mark.
        enum Parsed {
            /// Not a mark line at all.
            case notAMark
            /// A mark.
            case mark(Mark)
            /// A line of kind `mark` that cannot be read, and why.
            case garbled(String)
        }

        /// The mark `line` holds, `notAMark`, or why a mark line cannot be read.
        static func parse(_ line: ArraySlice<UInt8>) -> Parsed {
            guard case .object(let fields)? = JSONParser.parse(line, maxDepth: 2), case .string(Self.kind)? = fields["kind"] else {
                return .notAMark
            }
            guard let frame = fields["frame"].flatMap(count), let seq = fields["seq"].flatMap(count) else {
                return .garbled("a mark line needs \"frame\" and \"seq\", whole numbers of at least 0, as {\"kind\":\"mark\",\"frame\":1,\"seq\":12}")
            }
            return .mark(Mark(frame: frame, seq: seq))
        }

        /// A whole number of at least 0 that fits an `Int` exactly.
        private static func count(_ value: JSONValue) -> Int? {
            guard case .number(let number) = value, number.rounded() == number, number >= 0, number < 9_007_199_254_740_992 else { return nil }
            return Int(number)
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
}
