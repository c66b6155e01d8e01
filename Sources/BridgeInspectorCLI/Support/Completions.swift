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

    /// `values` that start with `prefix` and that no shell's completion script can expand or
    /// run (``ShellWord/isInert(_:)``); the others are left out.
    static func candidates(_ values: [String], prefix: String) -> [String] {
        values.filter { $0.hasPrefix(prefix) && ShellWord.isInert($0) }
    }
}
