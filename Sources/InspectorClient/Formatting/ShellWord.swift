/// Text that goes into a shell command line: a value from a host (a correlation id, a hold id,
/// a host name) or a path, in a command the inspector offers a person to copy
/// (`answer it with bridge-inspector respond <id>`), or as a completion candidate.
///
/// A journey chooses its correlation ids, so an id is untrusted text: written into a command
/// as it is, `$(touch x)` or `a;rm -rf ~` would run when the person pastes the command, and
/// as a completion candidate bash expands it when Tab is pressed. Two rules, one per use:
///
/// - ``quoted(_:)`` for a command to copy: the text as one word that means itself in sh, bash,
///   zsh and fish alike.
/// - ``isInert(_:)`` for a completion candidate: only text every shell leaves alone, whatever
///   the completion script does with it (bash's `compgen -W` expands each word it is given, and
///   zsh's `_describe` reads a `:` as the start of a description), so other text is never offered.
///
/// Neither makes text safe for a terminal: a quoted word can still hold control characters,
/// so what is printed also goes through the terminal sanitiser.
public enum ShellWord {
    /// The characters a word made only of can be written bare (never quoted) in sh, bash, zsh and
    /// fish, and offered as a completion candidate: ASCII letters, digits and `-_.,+@/`.
    ///
    /// None of them starts an expansion in any of the four shells (`$`, `` ` ``, `~`, `{`, `*`,
    /// `?`, `[`, `=`, `%`, `!`, `^`, `#` are all left out), ends a word or a command (spaces,
    /// `;`, `&`, `|`, `<`, `>`, `(`, `)`), quotes or escapes (`'`, `"`, `\`), or separates a
    /// value from its description in zsh (`:`).
    public static let inertPunctuation: Set<Unicode.Scalar> = ["-", "_", ".", ",", "+", "@", "/"]

    /// Whether `text` can stand bare on any shell's command line and be offered by any
    /// completion script: not empty, and only ASCII letters, digits and ``inertPunctuation``.
    public static func isInert(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isInert)
    }

    /// `text` as one shell word that means exactly `text` in sh, bash, zsh and fish: bare when
    /// it is ASCII letters, digits, ``inertPunctuation`` and `:` (a `:` only matters to zsh's
    /// completion descriptions, not on a command line), else in single quotes, with each `'` and `\` written outside them as
    /// `\'` and `\\` (fish reads `\'` and `\\` as escapes inside single quotes, the others do not,
    /// so neither is ever put inside them).
    ///
    /// ```swift
    /// ShellWord.quoted("id:web-4fd7") // id:web-4fd7
    /// ShellWord.quoted("$(rm x)")     // '$(rm x)'
    /// ShellWord.quoted("it's")        // 'it'\''s'
    /// ```
    public static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ isInert($0) || $0 == ":" }) { return text }
        var word = ""
        var run = ""
        func closeRun() {
            if !run.isEmpty { word += "'" + run + "'" }
            run = ""
        }
        for scalar in text.unicodeScalars {
            if scalar == "'" || scalar == "\\" {
                closeRun()
                word += "\\" + String(scalar)
            } else {
                run.unicodeScalars.append(scalar)
            }
        }
        closeRun()
        return word.isEmpty ? "''" : word
    }

    private static func isInert(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return inertPunctuation.contains(scalar)
        }
    }
}
