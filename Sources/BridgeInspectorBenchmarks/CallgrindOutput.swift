import Foundation

/// One thread's file of a callgrind run (`--separate-threads=yes` writes one per thread, named
/// `<out-file>-01`, `-02`, … by valgrind's thread number; 01 is the main thread).
struct CallgrindOutput {
    /// The instructions the thread executed (the `Ir` event of the `totals:` line, or of
    /// `summary:` where a file has no totals).
    var instructions: Int
    /// valgrind's thread number, from the file name's suffix.
    var thread: Int
    /// The text of the file, to tell which thread it was by the functions it ran.
    var text: String

    /// Reads `text`; nil when it holds no `totals:` or `summary:` line with an `Ir` count.
    init?(text: String, thread: Int) {
        guard let instructions = Self.instructions(in: text) else { return nil }
        self.instructions = instructions
        self.thread = thread
        self.text = text
    }

    /// The `Ir` count of the `totals:` line (or, without one, the `summary:` line): the first
    /// event unless the `events:` line names `Ir` elsewhere.
    static func instructions(in text: String) -> Int? {
        var events: [Substring] = ["Ir"]
        var totals: Int?
        var summary: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ")
            } else if line.hasPrefix("totals:") {
                totals = count(of: "Ir", events: events, in: line.dropFirst("totals:".count))
            } else if line.hasPrefix("summary:") {
                summary = count(of: "Ir", events: events, in: line.dropFirst("summary:".count))
            }
        }
        return totals ?? summary
    }

    private static func count(of event: String, events: [Substring], in values: Substring) -> Int? {
        guard let index = events.firstIndex(where: { $0 == event }) else { return nil }
        let numbers = values.split(separator: " ")
        guard index < numbers.count else { return nil }
        return Int(numbers[index])
    }

    /// Whether the thread ran a function whose (mangled) name contains `fragment`.
    ///
    /// callgrind writes a name in full only where it first appears, as a function (`fn=`) or as
    /// one called (`cfn=`), and by number after that; a function called is run by the same
    /// thread, so either line tells.
    func ran(_ fragment: String) -> Bool {
        text.split(separator: "\n").contains { ($0.hasPrefix("fn=") || $0.hasPrefix("cfn=")) && $0.contains(fragment) }
    }

    /// The valgrind that wrote the main thread's file of the run written to `outFile` (its
    /// `creator:` line, e.g. `callgrind-3.19.0`).
    static func creator(in outFile: String) throws -> String {
        guard let main = try threads(of: outFile).first,
            let line = main.text.split(separator: "\n").first(where: { $0.hasPrefix("creator:") })
        else { return "unknown" }
        return line.dropFirst("creator:".count).trimmingCharacters(in: .whitespaces)
    }

    /// The thread files of the run written to `outFile` (`<outFile>-NN`), by thread number.
    static func threads(of outFile: String) throws -> [CallgrindOutput] {
        try threadFiles(of: outFile).map { file in
            guard let text = try? String(contentsOfFile: file.path, encoding: .utf8), let output = CallgrindOutput(text: text, thread: file.thread) else {
                throw BenchError("\(file.path) is not a callgrind output with an instruction count")
            }
            return output
        }
    }

    /// The paths of the thread files of the run written to `outFile`, by thread number.
    static func threadFiles(of outFile: String) throws -> [(thread: Int, path: String)] {
        let directory = (outFile as NSString).deletingLastPathComponent
        let prefix = (outFile as NSString).lastPathComponent + "-"
        return try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { name in
            guard name.hasPrefix(prefix), let thread = Int(name.dropFirst(prefix.count)) else { return nil }
            return (thread, directory + "/" + name)
        }.sorted { $0.thread < $1.thread }
    }
}
