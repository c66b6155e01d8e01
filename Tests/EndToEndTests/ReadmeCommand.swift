import Foundation

/// One command of a shell block (```` ```sh ````) in a Markdown file, as a reader would type it:
/// continuation lines joined, the comment after ` # ` kept apart.
struct ReadmeCommand: CustomStringConvertible {
    /// The heading of the section it is in.
    var section: String
    /// The line number in the file where it starts (1-based).
    var line: Int
    /// What is typed: the command without its comment.
    var command: String
    /// The comment after it, if any.
    var comment: String

    var description: String { "line \(line) (\(section)): \(command)" }

    /// The command without the environment assignments before it (`ASAN_OPTIONS=… swift test`
    /// is `swift test …`), for telling what program it runs.
    var program: String {
        var words = command.split(separator: " ", omittingEmptySubsequences: true)[...]
        while let first = words.first, let equals = first.firstIndex(of: "="),
            first[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !first[..<equals].isEmpty {
            words = words.dropFirst()
        }
        return words.joined(separator: " ")
    }

    /// Every command of every `sh` block in `markdown`, in order.
    static func parse(_ markdown: String) -> [ReadmeCommand] {
        var commands: [ReadmeCommand] = []
        var section = ""
        var inShellBlock = false
        var inOtherBlock = false
        var pending: (line: Int, text: String)?
        for (index, rawLine) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            if line.hasPrefix("```") {
                if inShellBlock || inOtherBlock {
                    inShellBlock = false
                    inOtherBlock = false
                } else if line == "```sh" || line == "```bash" || line == "```shell" {
                    inShellBlock = true
                } else {
                    inOtherBlock = true
                }
                continue
            }
            if !inShellBlock && !inOtherBlock, line.hasPrefix("#") {
                section = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard inShellBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending == nil, trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let started = pending {
                pending = (started.line, started.text + " " + trimmed)
            } else {
                pending = (index + 1, trimmed)
            }
            if let text = pending?.text, text.hasSuffix("\\") {
                pending = (pending?.line ?? index + 1, String(text.dropLast()).trimmingCharacters(in: .whitespaces))
                continue
            }
            if let (start, text) = pending {
                let (command, comment) = splitComment(text)
                commands.append(ReadmeCommand(section: section, line: start, command: command, comment: comment))
                pending = nil
            }
        }
        return commands
    }

    /// Splits `text` at the first ` #` outside quotes (a comment, as the shell reads it).
    static func splitComment(_ text: String) -> (command: String, comment: String) {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#", previous == " " {
                let command = text[..<index].trimmingCharacters(in: .whitespaces)
                let comment = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
                return (command, comment)
            }
            previous = character
        }
        return (text, "")
    }
}
