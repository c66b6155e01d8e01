import Foundation
import Testing
import TestSupport

/// The package's root directory (found from this file's path).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The WebKit runner's path; a failed requirement when it is missing (see ``WebKitRunnerBuild``).
func requireWebKitRunner(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try #require(WebKitRunnerBuild.path, Comment(rawValue: WebKitRunnerBuild.missingNote), sourceLocation: sourceLocation)
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the WebKit runner is built, or where CI requires it.
    static var requiresWebKitRunner: Self { .enabled(if: WebKitRunnerBuild.runs, Comment(rawValue: WebKitRunnerBuild.skipNote)) }
}
