import Foundation
import Testing

/// Golden screens: a rendered screen compared exactly with a text file kept under
/// `Tests/Goldens/InspectorTUITests/`, found from this file's `#filePath` (so the tests run from
/// any directory). The folder is outside the test target's own, where SwiftPM would warn of
/// files it does not handle unless the manifest excluded them.
///
/// As swift-argument-parser's `assertSnapshot` does, a missing file is recorded, and every file
/// is recorded again when the environment has `RECORD_SNAPSHOTS` set:
///
/// ```sh
/// RECORD_SNAPSHOTS=1 swift test --skip-build --filter GoldenScreenTests
/// git diff Tests/Goldens   # review what changed on screen
/// ```
///
/// A recording fails the test, so a run that records can never pass by itself. A mismatch fails
/// with a line diff (`-` the golden, `+` the screen) and says how to record again.
enum GoldenScreen {
    /// The folder of the golden files: `Tests/Goldens/InspectorTUITests/`.
    static func directory(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // InspectorTUITests/
            .deletingLastPathComponent()  // Tests/
            .appendingPathComponent("Goldens/InspectorTUITests")
    }

    /// Whether this run records the goldens instead of comparing them.
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil }

    /// Compares `actual` with the golden file `name`.txt, or records it.
    static func assert(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory().appendingPathComponent(name + ".txt")
        let exists = FileManager.default.fileExists(atPath: url.path)
        // The file ends with a newline, as a text file does; the screen has none of its own.
        let text = actual + "\n"
        if recording || !exists {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
                Issue.record("recorded the golden screen \(url.path); run again without RECORD_SNAPSHOTS to compare", sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not record the golden screen \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        let expected: String
        do {
            expected = try String(contentsOf: url, encoding: .utf8)
        } catch {
            Issue.record("could not read the golden screen \(url.path): \(error)", sourceLocation: sourceLocation)
            return
        }
        guard expected != text else { return }
        Issue.record(
            """
            the screen differs from the golden \(name).txt (- golden, + screen):
            \(diff(expected: expected, actual: text))
            If the change is meant, record it again and review the diff of the file:
              RECORD_SNAPSHOTS=1 swift test --skip-build --filter GoldenScreenTests
            """, sourceLocation: sourceLocation)
    }

    /// A line diff of two texts: unchanged lines with two spaces, removed ones with `-`, added
    /// ones with `+`, each with its line number in its own text; runs of unchanged lines far
    /// from a change are left out.
    static func diff(expected: String, actual: String) -> String {
        let old = expected.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        let difference = new.difference(from: old)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both texts together: a removed line of the old, an inserted line of the new, or a
        // line both share.
        var lines: [(mark: Character, number: Int, text: String)] = []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.count || newIndex < new.count {
            if oldIndex < old.count, removed.contains(oldIndex) {
                lines.append(("-", oldIndex + 1, old[oldIndex]))
                oldIndex += 1
            } else if newIndex < new.count, inserted.contains(newIndex) {
                lines.append(("+", newIndex + 1, new[newIndex]))
                newIndex += 1
            } else {
                lines.append((" ", newIndex + 1, newIndex < new.count ? new[newIndex] : ""))
                oldIndex += 1
                newIndex += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        let context = 2
        var shown: [String] = []
        var last: Int?
        for index in lines.indices where changed.contains(where: { abs($0 - index) <= context }) {
            if let last, index > last + 1 { shown.append("  …") }
            let line = lines[index]
            let number = String(line.number)
            shown.append("\(line.mark) \(String(repeating: " ", count: max(0, 3 - number.count)))\(number) │\(line.text)")
            last = index
        }
        return shown.joined(separator: "\n")
    }
}
