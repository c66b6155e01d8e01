import Foundation

/// Writes a simulated journey's log to a file as JSON Lines: one ``JourneyLogEntry`` per line,
/// written as it happens, so `tail -f` and `jq` can follow it.
///
/// ```swift
/// let log = try JourneyLog(path: "/tmp/journey.jsonl")
/// let journey = SimulatedJourney(host: host, log: log)
/// ```
@MainActor
public final class JourneyLog {
    /// The file being written.
    public let path: String
    /// The first write error, if any; later entries are dropped once writing has failed.
    public private(set) var writeError: String?
    private var handle: FileHandle?

    /// Creates (or empties) the file at `path`, or throws an error naming the file.
    public init(path: String) throws(SimulationInputError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            let reason = String(cString: strerror(errno))
            throw SimulationInputError(file: path, place: "", message: "cannot create the journey log: \(reason)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw SimulationInputError(file: path, place: "", message: "cannot open the journey log for writing")
        }
        self.handle = handle
    }

    /// Appends one entry as a line.
    public func write(_ entry: JourneyLogEntry) {
        guard let handle, writeError == nil else { return }
        do {
            try handle.write(contentsOf: Data((entry.jsonLine + "\n").utf8))
        } catch {
            writeError = "\(error)"
        }
    }

    /// Closes the file; later entries are dropped.
    public func close() {
        try? handle?.close()
        handle = nil
    }
}
