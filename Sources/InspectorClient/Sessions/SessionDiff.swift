import BridgeCore
import InspectorProtocol

/// How two sessions differ: aligned by what happened, then compared item by item.
///
/// **Alignment.** Each item of a ``SessionTranscript`` has a key, its direction, kind and action
/// (``SessionTranscript/Item/alignmentKey``): never its correlation id or time. The two
/// sequences of keys are aligned by a longest common subsequence (``SequenceAlignment``:
/// Myers' algorithm after the equal prefix and suffix, fast for sessions that are mostly
/// equal). Items left over on the left are ``SessionDifference/Kind/missing``, on the right
/// ``SessionDifference/Kind/added``; a missing item and an added one with the same key and the
/// same content (after the ignores) are one ``SessionDifference/Kind/moved`` instead.
///
/// **Comparison.** For each aligned pair: the answer's status and error code, every value of
/// the messages that differs (``SessionDifference/path``; what ``SessionDiffOptions`` ignores
/// left out), an answer on one side only, and a latency outside the tolerance.
///
/// ```swift
/// let diff = SessionDiff(left: recorded, right: live, options: SessionDiffOptions(ignoredPaths: [try SessionIgnorePath(parsing: "data.sessionId")]))
/// if !diff.isSame { for line in diff.textLines(safe: Sanitizer.sanitize) { print(line) } }
/// ```
public struct SessionDiff: Sendable {
    /// The left session (the recorded one, the "before").
    public let left: SessionTranscript
    /// The right session (the "after").
    public let right: SessionTranscript
    /// What was ignored and the latency tolerance.
    public let options: SessionDiffOptions
    /// Every difference, in the order of the sessions.
    public let differences: [SessionDifference]
    /// How many items were aligned with an item of the other side.
    public let alignedCount: Int

    /// Whether the sessions are the same (no difference).
    public var isSame: Bool { differences.isEmpty }

    /// Aligns and compares `left` and `right`.
    public init(left: SessionTranscript, right: SessionTranscript, options: SessionDiffOptions = SessionDiffOptions()) {
        self.left = left
        self.right = right
        self.options = options
        let comparison = SessionValueComparison(options: options)
        var keyIds: [String: Int] = [:]
        func ids(_ items: [SessionTranscript.Item]) -> [Int] {
            items.map { item in
                let key = item.alignmentKey
                if let id = keyIds[key] { return id }
                let id = keyIds.count
                keyIds[key] = id
                return id
            }
        }
        let leftKeys = ids(left.items)
        let rightKeys = ids(right.items)
        let alignment = SequenceAlignment(left: leftKeys, right: rightKeys)
        alignedCount = alignment.matches.count

        // The walk: pairs, and what lies between them on either side.
        enum Step {
            case pair(Int, Int)
            case missing(Int)
            case added(Int)
        }
        var steps: [Step] = []
        steps.reserveCapacity(max(left.items.count, right.items.count))
        var i = 0
        var j = 0
        for match in alignment.matches + [(left: left.items.count, right: right.items.count)] {
            while i < match.left {
                steps.append(.missing(i))
                i += 1
            }
            while j < match.right {
                steps.append(.added(j))
                j += 1
            }
            if match.left < left.items.count { steps.append(.pair(match.left, match.right)) }
            i = match.left + 1
            j = match.right + 1
        }

        // An item missing at one place and added at another with the same content moved.
        var addedByContent: [ItemContent: [Int]] = [:]
        for step in steps {
            if case .added(let index) = step {
                addedByContent[ItemContent(right.items[index], key: rightKeys[index], comparison: comparison), default: []].append(index)
            }
        }
        var movedTo: [Int: Int] = [:]
        var movedAdded: Set<Int> = []
        if !addedByContent.isEmpty {
            for step in steps {
                guard case .missing(let index) = step else { continue }
                let content = ItemContent(left.items[index], key: leftKeys[index], comparison: comparison)
                guard var candidates = addedByContent[content], !candidates.isEmpty else { continue }
                let target = candidates.removeFirst()
                addedByContent[content] = candidates
                movedTo[index] = target
                movedAdded.insert(target)
            }
        }

        var differences: [SessionDifference] = []
        for step in steps {
            switch step {
            case .pair(let l, let r):
                Self.compare(left.items[l], l, right.items[r], r, comparison: comparison, into: &differences)
            case .missing(let l):
                let side = SessionDifference.Side(left.items[l], index: l)
                if let r = movedTo[l] {
                    differences.append(SessionDifference(kind: .moved, left: side, right: SessionDifference.Side(right.items[r], index: r)))
                } else {
                    differences.append(SessionDifference(kind: .missing, left: side, right: nil))
                }
            case .added(let r):
                guard !movedAdded.contains(r) else { continue }
                differences.append(SessionDifference(kind: .added, left: nil, right: SessionDifference.Side(right.items[r], index: r)))
            }
        }
        self.differences = differences
    }

    /// An item's content as compared: its key and its normalized values.
    private struct ItemContent: Hashable {
        var key: Int
        var message: JSONValue
        var answer: JSONValue?

        init(_ item: SessionTranscript.Item, key: Int, comparison: SessionValueComparison) {
            self.key = key
            message = comparison.normalized(SessionDiff.messageValue(item), at: SessionFieldPath([]))
            answer = item.answer.map { comparison.normalized(SessionDiff.answerValue($0), at: SessionFieldPath([])) }
        }
    }

    /// The compared parts of a request, event or malformed input: `version` and `data`.
    static func messageValue(_ item: SessionTranscript.Item) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        if let version = item.version { fields["version"] = .string(version) }
        if let data = item.data { fields["data"] = data }
        return .object(fields)
    }

    /// The compared parts of an answer: `version`, `status`, `error` and `data`.
    static func answerValue(_ answer: SessionTranscript.Answer) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        if let version = answer.version { fields["version"] = .string(version) }
        if let status = answer.status { fields["status"] = .string(status.rawValue) }
        if let error = answer.error {
            fields["error"] = .object(["code": .string(error.code), "message": .string(error.message), "recoverable": .bool(error.recoverable)])
        }
        if let data = answer.data { fields["data"] = data }
        return .object(fields)
    }

    private static func compare(
        _ l: SessionTranscript.Item, _ li: Int, _ r: SessionTranscript.Item, _ ri: Int, comparison: SessionValueComparison,
        into differences: inout [SessionDifference]
    ) {
        let leftSide = SessionDifference.Side(l, index: li)
        let rightSide = SessionDifference.Side(r, index: ri)
        let root = SessionFieldPath([])
        // Equal values stay equal once normalized: most pairs of a mostly equal session end here.
        let (leftMessage, rightMessage) = (messageValue(l), messageValue(r))
        if l.kind != .answer, leftMessage != rightMessage {
            var changes: [SessionValueComparison.Change] = []
            comparison.changes(
                comparison.normalized(leftMessage, at: root), comparison.normalized(rightMessage, at: root), at: root, into: &changes)
            for change in changes {
                differences.append(SessionDifference(
                    kind: .fieldChanged, left: leftSide, right: rightSide, part: .message, path: change.path.description,
                    old: SessionValueComparison.display(change.old), new: SessionValueComparison.display(change.new)))
            }
        }
        switch (l.answer, r.answer) {
        case (nil, nil):
            return
        case (.some, nil):
            differences.append(SessionDifference(kind: .answerMissing, left: leftSide, right: rightSide))
        case (nil, .some):
            differences.append(SessionDifference(kind: .answerExtra, left: leftSide, right: rightSide))
        case (let la?, let ra?):
            var changes: [SessionValueComparison.Change] = []
            let (leftAnswer, rightAnswer) = (answerValue(la), answerValue(ra))
            if leftAnswer != rightAnswer {
                comparison.changes(
                    comparison.normalized(leftAnswer, at: root), comparison.normalized(rightAnswer, at: root), at: root, into: &changes)
            }
            let errorOnOneSide = (la.error == nil) != (ra.error == nil)
            var found: [SessionDifference] = []
            for change in changes {
                let path = change.path.description
                let kind: SessionDifference.Kind
                switch path {
                case "status": kind = .statusChanged
                case "error.code": kind = .errorCodeChanged
                case "error" where errorOnOneSide:
                    // Said by the error code's change; the message and flag would repeat it.
                    found.append(SessionDifference(
                        kind: .errorCodeChanged, left: leftSide, right: rightSide, part: .answer, path: "error.code",
                        old: la.error.map { SessionValueComparison.shortened($0.code) }, new: ra.error.map { SessionValueComparison.shortened($0.code) }))
                    continue
                default: kind = .fieldChanged
                }
                // A status and an error code are shown as words, other values as JSON.
                let show = kind == .fieldChanged ? SessionValueComparison.display : SessionValueComparison.plain
                found.append(SessionDifference(
                    kind: kind, left: leftSide, right: rightSide, part: .answer, path: path, old: show(change.old), new: show(change.new)))
            }
            // The status first, then the error code, then the values, as a person reads them.
            func rank(_ kind: SessionDifference.Kind) -> Int { kind == .statusChanged ? 0 : kind == .errorCodeChanged ? 1 : 2 }
            differences += found.enumerated().sorted { (rank($0.element.kind), $0.offset) < (rank($1.element.kind), $1.offset) }.map(\.element)
            if let lms = la.latencyMs, let rms = ra.latencyMs, comparison.options.latency.exceeded(left: lms, right: rms) {
                differences.append(SessionDifference(kind: .latencyChanged, left: leftSide, right: rightSide, leftLatencyMs: lms, rightLatencyMs: rms))
            }
        }
    }
}
