import BridgeCore
import Foundation

/// A ``SessionDiff`` as JSON for scripts: stable keys, sorted, one object.
///
/// ```json
/// {"differences":[{"kind":"statusChanged","left":{"action":"camera.document.capture","correlationId":"cap-1","direction":"received","index":3,"kind":"request","seq":12,"answerSeq":14},
///   "right":{...},"part":"answer","path":"status","old":"success","new":"error"}],
///  "left":{"name":"build-41.jsonl","host":"demo","messages":24,"firstTime":...,"lastTime":...,"inspectorMadeLeftOut":0},
///  "right":{...},"same":false,"aligned":12,"summary":"1 difference: 1 status changed",
///  "counts":{"statusChanged":1},"ignored":{"defaults":true,"paths":[]},"latency":{"factor":2,"minimumMs":250}}
/// ```
///
/// Every difference has `kind` and `left`/`right` (absent for an added or a missing item); `part`,
/// `path`, `old`, `new` where a value changed (`old`/`new` absent: the value is absent on that
/// side); `leftLatencyMs`/`rightLatencyMs` for `latencyChanged`. Values from the sessions are
/// untrusted: a terminal needs them made safe.
extension SessionDiff {
    /// The report as JSON (compact, sorted keys).
    public func json() -> Data {
        (try? JSONEncoding.compact.encode(Report(self))) ?? Data("{}".utf8)
    }

    private struct Report: Encodable {
        var same: Bool
        var aligned: Int
        var summary: String
        var left: SideHeader
        var right: SideHeader
        var differences: [SessionDifference]
        var counts: [String: Int]
        var ignored: Ignored
        var latency: Latency

        struct SideHeader: Encodable {
            var name: String
            var host: String?
            var messages: Int
            var firstTime: Double?
            var lastTime: Double?
            var inspectorMadeLeftOut: Int
            var includesInspectorMade: Bool
        }

        struct Ignored: Encodable {
            var defaults: Bool
            var paths: [String]
        }

        struct Latency: Encodable {
            var factor: Double
            var minimumMs: Double
        }

        init(_ diff: SessionDiff) {
            same = diff.isSame
            aligned = diff.alignedCount
            summary = diff.summary
            left = Self.header(diff.left)
            right = Self.header(diff.right)
            differences = diff.differences
            counts = Dictionary(diff.differences.map { ($0.kind.rawValue, 1) }, uniquingKeysWith: +)
            ignored = Ignored(defaults: diff.options.useDefaultIgnores, paths: diff.options.ignoredPaths.map(\.description))
            latency = Latency(factor: diff.options.latency.factor, minimumMs: diff.options.latency.minimumMs)
        }

        static func header(_ transcript: SessionTranscript) -> SideHeader {
            SideHeader(
                name: transcript.name, host: transcript.hostName, messages: transcript.messageCount, firstTime: transcript.timeSpan?.lowerBound,
                lastTime: transcript.timeSpan?.upperBound, inspectorMadeLeftOut: transcript.inspectorMadeLeftOut,
                includesInspectorMade: transcript.includesInspectorMade)
        }
    }
}
