import Foundation
import TestSupport
import Testing

/// The README's shell blocks, run top to bottom as a newcomer would type them, in one shell
/// (issue 27, trap 1: "the README cannot be followed in order").
///
/// The walk runs in a scratch copy of the clone (its `examples`, `docs` and `Integrations`
/// linked in) with a fresh `HOME`, a PATH without `~/.local/bin`, and a socket directory of its
/// own, so only the hosts it starts are found. What a reader does by hand is done the same way
/// here: a command whose comment says "Ctrl-C" is interrupted with SIGINT once it has shown what
/// it is for; the interactive inspector runs in a real terminal (tmux) and is quit with `q`.
/// What cannot run inside the suite is listed in ``skipped`` with the reason, and the builds the
/// README asks for are the ones the suite already runs on (`swift run bridge-inspector` is the
/// built binary, `.build/release/bridge-inspector` is linked to it). A command this test does not
/// know how to run fails it, so a new README command comes with a way to check it.
@Suite("README walkthrough", .requires(.tmux), .requires(.jq), .requires(.man))
struct ReadmeWalkthroughTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// Commands that are not run, and why.
    static let skipped: [(prefix: String, reason: String)] = [
        ("swift test", "the test suite itself (and its sanitizer runs, a build of their own)"),
        ("swift build -c release --product bridge-inspector", "a release build of several minutes: the walk links the built binary where it lands"),
        ("swift build --package-path Integrations/WebKitRunner", "the WebKit runner: .ci/run builds it before the tests (WebKitRunnerBuild)"),
        ("apt-get install", "system packages: .ci/run installs them"),
    ]

    /// How a command that does not simply run and exit 0 is checked.
    enum Check {
        /// Runs and exits with one of these statuses.
        case exits(Set<Int32>)
        /// Runs in the background of the shell (it ends in `&`) and is ready when its output has this.
        case background(ready: String)
        /// Runs until interrupted: ready when its output has this, then SIGINT; it then exits
        /// with one of `exits` (130: the shell saw it die of SIGINT, as `jq` does).
        case untilInterrupted(ready: String, exits: Set<Int32> = [0, 130])
        /// The interactive inspector: in tmux, until the screen shows this; then `q`.
        case terminal(shows: String)
        /// Needs the WebKit runner: as `untilInterrupted` where it is built.
        case webKit(ready: String)
    }

    /// What each command must do, by the start of the command.
    static func check(_ command: ReadmeCommand) -> Check? {
        let text = command.program
        if text.hasPrefix("swift run bridge-inspector host --webkit") { return .webKit(ready: "sent host.ready") }
        if text == "swift run bridge-inspector demo" { return .terminal(shows: "Pending") }
        if text.hasPrefix("bridge-inspector open ") { return .terminal(shows: "Pending") }
        if text.hasPrefix("bridge-inspector --host ") { return .terminal(shows: "web-journey") }
        if text.hasPrefix("bridge-inspector doctor --host demo") { return .exits([6]) }
        if text.hasSuffix("&") {
            if text.hasPrefix("bridge-inspector host --serve") { return .background(ready: "serving: ") }
            if text.hasPrefix("bridge-inspector host") { return .background(ready: "socket: ") }
            if text.hasPrefix("bridge-inspector break") { return .background(ready: "breakpoint b1 set") }
            if text.hasPrefix("bridge-inspector fault") { return .background(ready: "fault rule f1 set") }
            return nil
        }
        if command.comment.contains("Ctrl-C to stop") {
            if text.hasPrefix("bridge-inspector tail --follow --json") { return .untilInterrupted(ready: "\"kind\"") }
            if text.hasPrefix("bridge-inspector auto-respond") { return .untilInterrupted(ready: "answering with 1 rule") }
            // On the demo a check fails, and `doctor --watch` ends with the doctor's verdict.
            if text.hasPrefix("bridge-inspector doctor --watch") { return .untilInterrupted(ready: "doctor", exits: [6]) }
            return nil
        }
        if text.hasPrefix("swift ") { return nil }
        return .exits([0])
    }

    static func readme() throws -> [ReadmeCommand] {
        ReadmeCommand.parse(try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
    }

    @Test("every command in the README's shell blocks is known to this test: run, or skipped with a reason")
    func everyCommandIsChecked() throws {
        let commands = try Self.readme()
        #expect(commands.count > 30, "the README's shell blocks: \(commands)")
        for command in commands where !Self.skipped.contains(where: { command.program.hasPrefix($0.prefix) }) {
            #expect(Self.check(command) != nil, "teach ReadmeWalkthroughTests how to check \(command)")
        }
        // The two commands of the README's promise come first.
        #expect(commands.prefix(2).map(\.command) == ["swift run bridge-inspector demo", "swift test"])
    }

    @Test("the README's commands work as printed, top to bottom, on a fresh home")
    func walkthrough() async throws {
        for tool in [ExternalTool.tmux, .jq, .man] { _ = try tool.require() }
        let scratch = try TemporaryDirectory(prefix: "bi-readme")
        let clone = scratch.file("clone")
        let home = scratch.file("home")
        let sockets = scratch.file("sockets")
        let outputs = scratch.file("outputs")
        for directory in [clone, home, sockets, outputs, clone + "/.build/release"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for linked in ["examples", "docs", "Integrations"] {
            try FileManager.default.createSymbolicLink(atPath: clone + "/" + linked, withDestinationPath: packageRoot.appendingPathComponent(linked).path)
        }
        try FileManager.default.createSymbolicLink(atPath: clone + "/.build/release/bridge-inspector", withDestinationPath: binary)
        // As the per-user directory is: private to its user, or inspectors refuse it.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sockets)

        let systemPath = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
            .split(separator: ":").filter { !$0.contains(".local/bin") && !$0.contains("/.build/") }.joined(separator: ":")
        var environment: [String: String] = [
            "HOME": home, "PATH": systemPath, "BRIDGE_INSPECTOR_SOCKET_DIR": sockets, "XDG_STATE_HOME": home + "/.local/state",
            "LANG": "C.UTF-8", "TERM": "xterm-256color",
        ]
        if let runner = WebKitRunnerBuild.path { environment["BRIDGE_INSPECTOR_WEBKIT_RUNNER"] = runner }
        let shell = try ShellSession(workingDirectory: clone, environment: environment, directory: outputs)
        defer {
            shell.stop()
            Self.stopHosts(in: sockets)
        }
        // The inspector in tmux sees what the shell has after the install step.
        var terminalEnvironment = environment
        terminalEnvironment["PATH"] = home + "/.local/bin:" + systemPath

        // Each command builds on the ones before it: the walk stops at the first that fails.
        walk: for command in try Self.readme() {
            if let skip = Self.skipped.first(where: { command.program.hasPrefix($0.prefix) }) {
                print("README walkthrough: not run here: \(command.command) (\(skip.reason))")
                continue
            }
            let typed = command.command.replacingOccurrences(of: "swift run bridge-inspector", with: Self.quote(binary))
            var passed = false
            switch Self.check(command) {
            case nil:
                Issue.record("teach ReadmeWalkthroughTests how to check \(command)")
            case .exits(let statuses)?:
                let result = try await shell.run(typed)
                passed = result.status.map(statuses.contains) == true
                #expect(passed, "\(command)\n\(result)")
            case .background(let ready)?:
                let result = try await shell.run(typed)
                #expect(result.status == 0, "\(command)\n\(result)")
                // A background job keeps writing to the files of the command that started it.
                passed = await waitUntil(timeout: .seconds(120), every: .milliseconds(50)) {
                    let output = shell.outputOfLastCommand()
                    return output.standardOutput.contains(ready) || output.standardError.contains(ready)
                }
                #expect(passed, "\(command): never printed “\(ready)”: \(shell.outputOfLastCommand())")
            case .untilInterrupted(let ready, let statuses)?:
                let (result, becameReady) = try await shell.runUntilInterrupted(typed) { $0.standardOutput.contains(ready) || $0.standardError.contains(ready) }
                let ended = result.status.map(statuses.contains) == true
                passed = becameReady && ended
                #expect(becameReady, "\(command): never printed “\(ready)”\n\(result)")
                #expect(ended, "\(command): Ctrl-C ends it with one of \(statuses.sorted())\n\(result)")
            case .webKit(let ready)?:
                guard WebKitRunnerBuild.runs else {
                    print("README walkthrough: not run here: \(command.command) (\(WebKitRunnerBuild.skipNote))")
                    continue walk
                }
                #expect(WebKitRunnerBuild.path != nil, "\(WebKitRunnerBuild.missingNote)")
                let (result, becameReady) = try await shell.runUntilInterrupted(typed) { $0.standardError.contains(ready) }
                passed = becameReady && result.status == 0
                #expect(becameReady, "\(command): never printed “\(ready)”\n\(result)")
                #expect(result.status == 0, "\(command): Ctrl-C stops the host cleanly\n\(result)")
            case .terminal(let shows)?:
                let terminal = try TmuxSession(["bash", "-c", "cd \(Self.quote(clone)) && \(typed)"], environment: terminalEnvironment)
                defer { terminal.kill() }
                await terminal.waitFor(shows)
                try terminal.press("q")
                let status = await terminal.exitStatus()
                passed = status == 0
                #expect(passed, "\(command): q quits with status 0; the terminal shows:\n\(terminal.screen())")
            }
            guard passed else {
                Issue.record("the README walk stopped at \(command): the commands after it build on it")
                return
            }
        }
        // What the walk left behind is what the README says it makes.
        #expect(FileManager.default.isExecutableFile(atPath: home + "/.local/bin/bridge-inspector"))
        #expect(FileManager.default.fileExists(atPath: clone + "/session.jsonl"))
        let har = (try? Data(contentsOf: URL(fileURLWithPath: clone + "/session.har"))) ?? Data()
        #expect((try? JSONSerialization.jsonObject(with: har) as? [String: Any])?["log"] != nil, "session.har is HAR")
    }

    /// Ends any host still serving a socket in `directory` (named `NAME.PID.sock`): a walk that
    /// failed half-way must not leave hosts running.
    private static func stopHosts(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".sock") {
            let parts = name.split(separator: ".")
            if parts.count >= 3, let pid = Int32(parts[parts.count - 2]) { kill(pid, SIGKILL) }
        }
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
