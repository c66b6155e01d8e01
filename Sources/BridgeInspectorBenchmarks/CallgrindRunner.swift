import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// Runs the bench's own workloads (``InstructionPath``) under `valgrind --tool=callgrind`.
struct CallgrindRunner {
    /// The valgrind executable.
    var valgrind: String
    /// This bench, as valgrind is to start it.
    var bench: String

    /// Finds valgrind (`explicitPath`, or `valgrind` on `PATH`) and makes a copy of this
    /// executable without its debugging information in `directory`; without valgrind, an error
    /// that says how to install it (never figures made up without it).
    ///
    /// The copy, because valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes ("possibly
    /// corrupted debuginfo file", and it gives up); the symbol table stays, so the outputs still
    /// name every function.
    static func prepare(explicitPath: String?, in directory: String) throws -> CallgrindRunner {
        let valgrind: String
        if let explicitPath {
            guard FileManager.default.isExecutableFile(atPath: explicitPath) else {
                throw BenchError("--instructions counts instructions with valgrind, and \(explicitPath) is not an executable: install valgrind (apt-get install valgrind) or name it with --valgrind PATH")
            }
            valgrind = explicitPath
        } else {
            guard let found = onPath("valgrind") else {
                throw BenchError("--instructions counts instructions with valgrind, which is not on PATH: install it (apt-get install valgrind) or name it with --valgrind PATH")
            }
            valgrind = found
        }
        guard let objcopy = onPath("objcopy") ?? onPath("llvm-objcopy") else {
            throw BenchError("--instructions needs objcopy to give valgrind a copy of the bench without DWARF 5 debugging information: apt-get install binutils")
        }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw BenchError("cannot find this executable (/proc/self/exe) to run it under valgrind")
        }
        let copy = directory + "/bridge-inspector-bench"
        let (status, output) = try run([objcopy, "--strip-debug", executable, copy], log: nil)
        guard status == 0 else { throw BenchError("\(objcopy) --strip-debug \(executable) failed (\(status)): \(output)") }
        return CallgrindRunner(valgrind: valgrind, bench: copy)
    }

    /// The executable `name` in a directory of `PATH`, or nil.
    private static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `valgrind --version`, e.g. `valgrind-3.19.0`.
    func version() throws -> String {
        let (status, output) = try Self.run([valgrind, "--version"], log: nil)
        guard status == 0 else { throw BenchError("\(valgrind) --version exited with \(status)") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `path`'s workload under callgrind, `feed` of `2 × base` messages, writing one file
    /// per thread to `<outFile>-NN` and valgrind's own messages to `<outFile>.log`.
    ///
    /// With `SWIFT_DETERMINISTIC_HASHING=1`: Swift seeds its hashing at random per process, so
    /// dictionaries and sets collide differently in each run, and the host's count alone moved by
    /// over 1 % between two runs without it.
    func count(_ path: InstructionPath, base: Int, feed: Int, outFile: String) throws {
        let arguments = [
            valgrind, "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(outFile)",
            bench, "--instructions-workload", path.rawValue, "--instruction-messages", String(base), "--instructions-feed", String(feed),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        let (status, _) = try Self.run(arguments, environment: environment, log: outFile + ".log")
        guard status == 0 else {
            let log = (try? String(contentsOfFile: outFile + ".log", encoding: .utf8)) ?? ""
            throw BenchError("\(path.rawValue) with \(feed) messages under callgrind exited with \(status):\n\(log.suffix(2000))")
        }
    }

    /// Runs `arguments` to its end, its output to `log` (or returned, without one).
    private static func run(
        _ arguments: [String], environment: [String: String]? = nil, log: String?
    ) throws -> (status: Int32, output: String) {
        // ThreadSupport's ChildProcess, not Foundation's `Process` (it can crash in `run()` on
        // Linux); in a process group of its own, as `Process` started it.
        var logDescriptor: Int32 = -1
        if let log {
            logDescriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard logDescriptor >= 0 else { throw BenchError("cannot write \(log)") }
        }
        defer { if logDescriptor >= 0 { close(logDescriptor) } }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: arguments[0], arguments: Array(arguments.dropFirst()), environment: environment,
                standardOutput: log == nil ? .pipe : .descriptor(logDescriptor), standardError: .descriptor(1), newProcessGroup: true)
        } catch {
            throw BenchError("\(error)")
        }
        let output = process.standardOutput?.readDataToEndOfFile() ?? Data()
        let status = process.waitUntilExit().statusOrSignal
        return (status, String(decoding: output, as: UTF8.self))
    }
}
