/// A place inside a JSON document, written the way people point at one:
/// `steps[3].awaitResponse.timeoutMs`.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down into a document.
    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the top of the document.
    var components: [Component] = []

    /// The path one key further down.
    func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// The path one array element further down.
    func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// `(top level)` for the document itself; otherwise keys joined by dots and indexes in
    /// brackets. A key that is not a plain identifier is quoted: `data["a b"]`.
    var description: String {
        if components.isEmpty { return "(top level)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainKey(key) {
                    text += text.isEmpty ? key : "." + key
                } else {
                    text += "[\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
                }
            }
        }
        return text
    }

    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !(first >= "0" && first <= "9") else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "_" || scalar == "$"
        }
    }
}
