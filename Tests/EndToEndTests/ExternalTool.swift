import Foundation
import Testing

/// A program some end-to-end tests need that this package does not build: tmux, to drive the
/// inspector in a real terminal, Chromium, to run a real web journey, jq and man, which the
/// README's commands use, and zsh and fish, whose completion scripts are run.
///
/// Under CI a missing tool is a failure (`.ci/run` installs both); on a developer's machine the
/// tests that need it are skipped, with a note that says how to install it. A test names what it
/// needs as a trait, and takes the executable where it starts the tool:
///
/// ```swift
/// @Test("the journey in a browser", .requires(.chromium))
/// func journey() async throws {
///     let browser = try HeadlessChromium(executable: try ExternalTool.chromium.require(), directory: directory)
/// }
/// ```
struct ExternalTool: Sendable {
    /// What the tool is called in notes and failures.
    let name: String
    /// The Debian package that brings it.
    let package: String
    /// The executable on `PATH`, if any.
    let executable: String?
    /// Whether this run must have it: under CI (`CI=true`), unless `.ci/run` said the tool cannot
    /// be had on this machine (`skipVariable` set); then its tests are skipped with that reason.
    let requiredByCI: Bool

    init(name: String, programs: [String], package: String, skipVariable: String? = nil) {
        let environment = ProcessInfo.processInfo.environment
        self.name = name
        self.package = package
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        executable = programs.lazy.compactMap { program in
            path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }.first
        requiredByCI = environment["CI"] == "true" && skipVariable.map { environment[$0] == nil } ?? true
    }

    /// Whether a test that needs the tool runs: it is installed, or CI requires it (and the test
    /// then fails on ``require(sourceLocation:)`` rather than passing unseen).
    var runs: Bool { executable != nil || requiredByCI }

    /// The executable; a failed requirement (under CI, where a skip would hide a broken install
    /// step) when it is missing.
    func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            executable, "CI=true but \(name) is not installed: .ci/run should have installed the Debian package \(package)",
            sourceLocation: sourceLocation)
    }

    /// tmux, for the inspector in a real terminal (`TmuxSession`).
    static let tmux = ExternalTool(name: "tmux", programs: ["tmux"], package: "tmux")

    /// jq, which the README's commands pipe JSON through (`ReadmeWalkthroughTests`).
    static let jq = ExternalTool(name: "jq", programs: ["jq"], package: "jq")

    /// man, which the README reads the man page with (`ReadmeWalkthroughTests`).
    static let man = ExternalTool(name: "man", programs: ["man"], package: "man-db")

    /// zsh, the Mac's default shell, whose completion script a test runs (`MainCommandCompletionTests`).
    static let zsh = ExternalTool(name: "zsh", programs: ["zsh"], package: "zsh")

    /// fish, whose completion script a test runs (`MainCommandCompletionTests`).
    static let fish = ExternalTool(name: "fish", programs: ["fish"], package: "fish")

    /// Chromium, for real web journeys (`HeadlessChromium`); `.ci/run` sets
    /// `BRIDGE_INSPECTOR_NO_CHROMIUM` where no Chromium can be installed.
    static let chromium = ExternalTool(
        name: "Chromium", programs: ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"], package: "chromium",
        skipVariable: "BRIDGE_INSPECTOR_NO_CHROMIUM")
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only where `tool` is installed, or where CI requires it; elsewhere it
    /// is skipped with a note that names the package to install.
    static func requires(_ tool: ExternalTool) -> Self {
        .enabled(if: tool.runs, "\(tool.name) is not installed (apt-get install \(tool.package); .ci/run does it): this test cannot run here")
    }
}
