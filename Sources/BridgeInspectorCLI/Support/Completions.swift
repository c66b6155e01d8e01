import ArgumentParser
import InspectorClient
import InspectorProtocol

/// What the shell completes for each kind of value (`bridge-inspector --generate-completion-script
/// bash|zsh|fish`): files for paths, the running hosts' names for `--host`, and a host's pending
/// correlation ids for `respond` and its hold ids for `release`, `answer` and `drop`.
///
/// The host names, pending ids and hold ids are asked of the running hosts when the person presses Tab,
/// never when the script is generated, and within a second: a stuck host gives no candidates
/// rather than a hung shell.
///
/// Nothing a host sends may be evaluated by a shell, and a journey chooses its correlation ids:
/// bash's completion function hands the candidates to `compgen -W`, which expands each word
/// (`$(...)`, backticks, `$((...))`, `~`, braces), and zsh's `_describe` reads a `:` as the start
/// of a description. So a value is offered only when it is made of characters no shell treats
/// specially (``ShellWord/isInert(_:)``: ASCII letters, digits and `-_.,+@/`); any other id is
/// left out, and `bridge-inspector snapshot` still lists it to be typed in quotes.
enum Completions {
    /// JSON files: host profiles, scenarios, reply-rule files.
    static let jsonFile = CompletionKind.file(extensions: ["json"])
    /// Image files for a capture slot.
    static let imageFile = CompletionKind.file(extensions: ["png", "jpg", "jpeg"])
    /// Recordings (`record`, `open`).
    static let recording = CompletionKind.file(extensions: ["jsonl"])
    /// Any file (sockets, logs).
    static let anyFile = CompletionKind.file()

    /// The names of the live hosts (each name once), then `NAME.PID` for names run more than once.
    static let hostNames = CompletionKind.custom { _, _, prefix in
        candidates(hostNames(in: HostDirectory()), prefix: prefix)
    }

    /// The correlation ids pending in the host the command line names (`--socket`, `--host`), or
    /// in the only running host.
    static let pendingIds = CompletionKind.custom { words, _, prefix in
        candidates(pendingIds(words: words), prefix: prefix)
    }

    /// The hold ids of the messages held in the host the command line names, or in the only
    /// running host.
    static let heldIds = CompletionKind.custom { words, _, prefix in
        candidates(stateValues(words: words) { $0.held?.map(\.id) ?? [] }, prefix: prefix)
    }

    /// Live host names, each once, then `NAME.PID` for each process of a name run several times.
    static func hostNames(in directory: HostDirectory) -> [String] {
        guard let live = try? directory.list(greet: false).filter(\.isLive) else { return [] }
        var names: [String] = []
        for listing in live where !names.contains(listing.name) { names.append(listing.name) }
        for name in names where live.filter({ $0.name == name }).count > 1 {
            names += live.filter { $0.name == name }.map { "\($0.name).\($0.pid)" }
        }
        return names
    }

    /// The pending ids of the host `words` name, asked within a second; none when no host answers.
    static func pendingIds(words: [String], directory: HostDirectory = HostDirectory()) -> [String] {
        stateValues(words: words, directory: directory) { $0.pending.map(\.correlationId) }
    }

    /// What `pick` takes from the state of the host `words` name, asked within a second; none
    /// when no host answers.
    static func stateValues(words: [String], directory: HostDirectory = HostDirectory(), _ pick: (WireState) -> [String]) -> [String] {
        let socket = value(of: "--socket", in: words)
        let host = value(of: "--host", in: words)
        guard let path = try? directory.resolveSocket(option: socket, hostName: host),
              let session = try? InspectorSession(socketPath: path, subscribe: true, clientName: "bridge-inspector completion", timeout: 1)
        else { return [] }
        defer { session.close() }
        guard let snapshot = try? session.firstSnapshot(timeout: 1) else { return [] }
        return pick(snapshot.state)
    }

    /// The value after `option` (`--host demo` or `--host=demo`), shell quotes left as typed.
    static func value(of option: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == option, words.indices.contains(index + 1) { return words[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }

    // MARK: The main command's options

    /// The completion script `--generate-completion-script SHELL` (or `=SHELL`) asks for, made
    /// by `generate`, or `nil` when `arguments` (without the program's name) ask for something
    /// else. Each shell's script learns the main command's options (``bashScript(_:rootFunction:defaultSubcommand:)``,
    /// ``zshScript(_:rootFunction:defaultSubcommand:)``, ``fishScript(_:program:defaultSubcommand:)``).
    static func completionScript(arguments: [String], generate: (CompletionShell) -> String) -> String? {
        let option = "--generate-completion-script"
        let name: String
        switch arguments.count {
        case 2 where arguments[0] == option: name = arguments[1]
        case 1 where arguments[0].hasPrefix(option + "="): name = String(arguments[0].dropFirst(option.count + 1))
        default: return nil
        }
        guard let shell = CompletionShell(rawValue: name) else { return nil }
        let script = generate(shell)
        switch shell {
        case .bash: return bashScript(script)
        case .zsh: return zshScript(script)
        case .fish: return fishScript(script)
        default: return script
        }
    }

    /// The start of bash's main completion function, after which it has read the words typed
    /// (`unparsed_words`, one line of swift-argument-parser's generated script).
    static let bashWordsLine = #"local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")"#

    /// Bash's generated completion script, completing the options of the main (default)
    /// command `inspect` on a command line that names no subcommand.
    ///
    /// swift-argument-parser's bash script knows only the subcommands at the top level, so
    /// `bridge-inspector --host <Tab>` listed subcommands. Here, when the first word typed is an
    /// option that is not the top level's own (`--help`, `--version`) and a word follows it,
    /// the top-level function hands the line to the `inspect` function, as if `inspect` had been
    /// typed: `--host` then completes running hosts' names as `inspect --host` does, `--socket`
    /// files, `--rules` JSON files. A script of another shape is returned unchanged.
    static func bashScript(_ script: String, rootFunction: String = "_bridge-inspector", defaultSubcommand: String = "inspect") -> String {
        inserting([
            "",
            "    # No subcommand, an option first: the main command (\(defaultSubcommand)) completes it.",
            #"    if [[ ${#unparsed_words[@]} -gt 1 && "${unparsed_words[0]}" == -* && ! "${unparsed_words[0]}" =~ ^(-h|--help|--version)$ ]]; then"#,
            "        local -a repeating_flags non_repeating_flags repeating_options non_repeating_options",
            "        \"\(rootFunction)_\(defaultSubcommand)\"",
            "        return",
            "    fi",
        ], into: script, in: rootFunction + "() {", after: bashWordsLine)
    }

    /// `script` with `hook` inserted after the first line reading `anchor` (white space around
    /// it aside) that follows the line `function`; unchanged when there is none, so a generator
    /// of another shape gives its script as it is.
    static func inserting(_ hook: [String], into script: String, in function: String, after anchor: String) -> String {
        var lines = script.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: function),
              let line = lines[start...].firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == anchor })
        else { return script }
        lines.insert(contentsOf: hook, at: line + 1)
        return lines.joined(separator: "\n")
    }

    /// zsh's generated completion script, completing the options of the main (default) command
    /// `inspect` on a command line that names no subcommand, as ``bashScript(_:rootFunction:defaultSubcommand:)``
    /// does for bash (zsh is the Mac's default shell).
    ///
    /// swift-argument-parser's top-level function expects a subcommand first, so
    /// `bridge-inspector --host <Tab>` offered nothing. Here, when the first word typed is an
    /// option that is not the top level's own and the word being completed comes after it, the
    /// top-level function calls the `inspect` function with the words as they are: its
    /// `_arguments` reads them as `inspect`'s options, and `--host` completes running hosts'
    /// names. A script of another shape is returned unchanged.
    static func zshScript(_ script: String, rootFunction: String = "_bridge-inspector", defaultSubcommand: String = "inspect") -> String {
        inserting([
            "",
            "    # No subcommand, an option first: the main command (\(defaultSubcommand)) completes it.",
            #"    if [[ "${current_word_index}" -gt 1 && "${words[2]}" == -* && "${words[2]}" != (-h|--help|--version) ]]; then"#,
            "        \(rootFunction)_\(defaultSubcommand)",
            "        return",
            "    fi",
        ], into: script, in: rootFunction + "() {", after: zshIndexLine)
    }

    /// The line of zsh's top-level function after which it knows which word is being completed.
    static let zshIndexLine = #"local -ir current_word_index="$((CURRENT - 1))""#

    /// fish's generated completion script, completing the options of the main (default) command
    /// `inspect` on a command line that names no subcommand, as ``bashScript(_:rootFunction:defaultSubcommand:)``
    /// does for bash.
    ///
    /// fish decides which command's options apply by parsing the words typed; a line whose first
    /// word after the program is an option stopped at the top level, which offered subcommands
    /// for `bridge-inspector --host <Tab>`. Here the parser reads such a line as if `inspect` had
    /// been typed (only for deciding what applies: the words handed to `---completion` are
    /// those typed), so `--host` completes running hosts' names. A script of another shape is
    /// returned unchanged.
    static func fishScript(_ script: String, program: String = "bridge-inspector", defaultSubcommand: String = "inspect") -> String {
        inserting([
            "    # No subcommand, an option first: the main command (\(defaultSubcommand)) completes it.",
            "    if test (count $unparsed_tokens) -gt 1; and string match -q -- '-*' $unparsed_tokens[2]; and not contains -- $unparsed_tokens[2] -h --help --version",
            "        set unparsed_tokens $unparsed_tokens[1] \(defaultSubcommand) $unparsed_tokens[2..]",
            "    end",
        ], into: script, in: "function __\(program)_parse_tokens -S", after: "set -l unparsed_tokens (__\(program)_tokens -pc)")
    }

    /// `values` that start with `prefix` and that no shell's completion script can expand or
    /// run (``ShellWord/isInert(_:)``); the others are left out.
    static func candidates(_ values: [String], prefix: String) -> [String] {
        values.filter { $0.hasPrefix(prefix) && ShellWord.isInert($0) }
    }
}
