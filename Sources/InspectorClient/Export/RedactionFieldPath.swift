import BridgeCore

/// A field a person names for ``Redactor`` to replace (`--field data.documentNumber`): object keys
/// separated by dots, `*` for any key in one position, read relative to a bridge message.
///
/// A path is tried at the message itself and at its `payload`, so `data.documentNumber` and
/// `payload.data.documentNumber` name the same field. Arrays are looked through: a path step
/// applies to every element of an array it meets (`data.people.name` names each person's
/// name). A key that itself holds a dot cannot be named.
///
/// ```swift
/// let path = try RedactionFieldPath(parsing: "data.*.number")
/// ```
public struct RedactionFieldPath: Sendable, Hashable, CustomStringConvertible {
    /// One position of the path.
    public enum Step: Sendable, Hashable {
        /// The member with this key.
        case key(String)
        /// Any member.
        case anyKey
    }

    /// The steps, outermost first (never empty).
    public let steps: [Step]

    /// Why a path cannot be read.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, for after the path.
        public var reason: String
        public var description: String { reason }
    }

    /// Reads `text` (`data.documentNumber`, `data.*.number`), or throws why it is not a path.
    public init(parsing text: String) throws(Problem) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else {
            throw Problem(reason: "a field path is keys separated by dots, with `*` for any key, such as data.documentNumber")
        }
        steps = parts.map { $0 == "*" ? .anyKey : .key(String($0)) }
    }

    /// The path as a person writes it.
    public var description: String {
        steps.map { if case .key(let name) = $0 { name } else { "*" } }.joined(separator: ".")
    }

    /// `value` with every field this path names replaced by `replace(old)`.
    func apply(to value: JSONValue, replace: (JSONValue) -> JSONValue) -> JSONValue {
        apply(steps[...], to: value, replace: replace)
    }

    private func apply(_ rest: ArraySlice<Step>, to value: JSONValue, replace: (JSONValue) -> JSONValue) -> JSONValue {
        guard let step = rest.first else { return replace(value) }
        switch value {
        case .array(let elements):
            return .array(elements.map { apply(rest, to: $0, replace: replace) })
        case .object(var members):
            let keys: [String]
            switch step {
            case .key(let name): keys = members[name] == nil ? [] : [name]
            case .anyKey: keys = members.keys.sorted()
            }
            for key in keys {
                if let member = members[key] { members[key] = apply(rest.dropFirst(), to: member, replace: replace) }
            }
            return .object(members)
        default:
            return value
        }
    }
}
