/// Where a value sits in a message, as a report shows it: `data.document.type`,
/// `data.items[2]`, `error.message`, `version`.
///
/// Paths start at the message's payload for `data`, `status` and `error`, and at the message
/// for `version`: the parts of a message ``SessionDiff`` compares.
public struct SessionFieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Step: Sendable, Hashable {
        /// A member of an object.
        case key(String)
        /// An element of an array.
        case index(Int)
    }

    /// The steps from the message down to the value.
    public var steps: [Step]

    /// Creates a path.
    public init(_ steps: [Step]) {
        self.steps = steps
    }

    /// The path one step further down.
    public func appending(_ step: Step) -> SessionFieldPath {
        SessionFieldPath(steps + [step])
    }

    /// `data.items[2].type`.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// A path a person names to leave out of the comparison (`--ignore data.sessionId`): everything
/// at and under it is ignored.
///
/// The syntax is the one reports show: keys joined by `.`, array elements as `[N]`; `*` alone
/// in a position matches any key (or element) there, `[*]` any element: `data.*.id`,
/// `data.items[*].capturedAt`.
public struct SessionIgnorePath: Sendable, Hashable, CustomStringConvertible {
    /// One position of the pattern.
    public enum Step: Sendable, Hashable {
        /// This key exactly.
        case key(String)
        /// This element exactly.
        case index(Int)
        /// Any key or element.
        case any
    }

    /// The pattern's positions.
    public var steps: [Step]
    /// The text it was read from.
    public var description: String

    /// Why a pattern cannot be read.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, with the pattern.
        public var description: String
    }

    /// Reads a pattern such as `data.sessionId`, `data.*.id` or `data.items[*]`.
    public init(parsing text: String) throws(ParseError) {
        var steps: [Step] = []
        let example = "name a path as reports show it, such as data.sessionId, data.*.id or data.items[*]"
        guard !text.isEmpty else { throw ParseError(description: "an empty --ignore path: \(example)") }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let keyEnd = rest.firstIndex(of: "[") ?? rest.endIndex
            let key = rest[rest.startIndex..<keyEnd]
            rest = rest[keyEnd...]
            if key.isEmpty && (rest.isEmpty || steps.isEmpty) {
                throw ParseError(description: "\"\(text)\" has an empty key: \(example)")
            }
            if !key.isEmpty { steps.append(key == "*" ? .any : .key(String(key))) }
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                    throw ParseError(description: "\"\(text)\" has an unclosed [ : \(example)")
                }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if inside == "*" {
                    steps.append(.any)
                } else if let index = Int(inside), index >= 0 {
                    steps.append(.index(index))
                } else {
                    throw ParseError(description: "\"\(text)\": [\(inside)] is not an element number or [*]: \(example)")
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        self.steps = steps
        self.description = text
    }

    /// Whether `path` is this pattern or lies under it.
    public func covers(_ path: SessionFieldPath) -> Bool {
        guard steps.count <= path.steps.count else { return false }
        for (pattern, step) in zip(steps, path.steps) {
            switch (pattern, step) {
            case (.any, _): continue
            case (.key(let a), .key(let b)) where a == b: continue
            case (.index(let a), .index(let b)) where a == b: continue
            default: return false
            }
        }
        return true
    }
}
