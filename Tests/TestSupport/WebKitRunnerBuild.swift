import Foundation

/// `bridge-inspector-webkit`, the WebKit runner built from Integrations/WebKitRunner (a package of
/// its own, so this package never needs WebKit to build; `.ci/run` builds it before `swift test`).
///
/// Tests that drive a journey in real WebKit run where it is built, and are skipped elsewhere
/// with ``skipNote``; under CI (`BRIDGE_INSPECTOR_REQUIRE_WEBKIT=1`) they run and fail instead,
/// since a skip there would hide a broken install step.
public enum WebKitRunnerBuild {
    /// The runner: `$BRIDGE_INSPECTOR_WEBKIT_RUNNER`, else the runner package's release or debug build.
    public static let path: String? = {
        if let explicit = ProcessInfo.processInfo.environment["BRIDGE_INSPECTOR_WEBKIT_RUNNER"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["release", "debug"].lazy
            .map { root.appendingPathComponent("Integrations/WebKitRunner/.build/\($0)/bridge-inspector-webkit").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether this run must have the runner (`BRIDGE_INSPECTOR_REQUIRE_WEBKIT=1`, as `.ci/run` sets).
    public static let required = ProcessInfo.processInfo.environment["BRIDGE_INSPECTOR_REQUIRE_WEBKIT"] == "1"

    /// Whether tests that need the runner run.
    public static var runs: Bool { path != nil || required }

    /// Why they are skipped where they do not run.
    public static let skipNote =
        "the WebKit runner is not built (swift build --package-path Integrations/WebKitRunner; it needs apt-get install libwebkit2gtk-4.1-dev xvfb): this test cannot run here"

    /// What a test reports when the runner is required but missing.
    public static let missingNote =
        "BRIDGE_INSPECTOR_REQUIRE_WEBKIT=1 but the WebKit runner is not built: `swift build --package-path Integrations/WebKitRunner` (needs libwebkit2gtk-4.1-dev and xvfb)"
}
