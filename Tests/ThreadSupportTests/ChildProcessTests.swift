import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import ThreadSupport

/// `ChildProcess`, the package's `posix_spawn` replacement for Foundation's `Process`. Every
/// blocking wait runs on a thread of its own, never on the cooperative pool.
@Suite("ThreadSupport: ChildProcess starts programs without Foundation's Process")
struct ChildProcessTests {
    /// Runs `/bin/sh -c script` with its output piped; returns its output, errors and ending.
    private static func shell(
        _ script: String, input: String? = nil, newProcessGroup: Bool = false, signals: ChildProcess.SignalState = .inherited
    ) async throws -> (output: String, errors: String, termination: ChildProcess.Termination) {
        try await DedicatedThread.run(name: "test-child") {
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", script], standardInput: input == nil ? .nullDevice : .pipe,
                standardOutput: .pipe, standardError: .pipe, newProcessGroup: newProcessGroup, signals: signals)
            if let input, let handle = child.standardInput {
                handle.write(Data(input.utf8))
                try handle.close()
            }
            let errors = Locked(Data())
            let errorHandle = try #require(child.standardError)
            let errorsRead = DispatchSemaphore(value: 0)
            DedicatedThread.start(name: "test-child-err") {
                let data = errorHandle.readDataToEndOfFile()
                errors.withLock { $0 = data }
                errorsRead.signal()
            }
            let output = try #require(child.standardOutput).readDataToEndOfFile()
            let termination = child.waitUntilExit()
            #expect(errorsRead.wait(timeout: .now() + 60) == .success)
            return (String(decoding: output, as: UTF8.self), String(decoding: errors.current, as: UTF8.self), termination)
        }
    }

    @Test("standard output, standard error and the exit status come back apart")
    func outputErrorsAndStatus() async throws {
        let result = try await Self.shell("echo out; echo err >&2; exit 7")
        #expect(result.output == "out\n")
        #expect(result.errors == "err\n")
        #expect(result.termination == .exited(7))
        #expect(result.termination.description == "exited with status 7")
    }

    @Test("what is written to standard input reaches the program, then end of input")
    func readsStandardInput() async throws {
        let result = try await Self.shell("cat; echo done", input: "line one\nline two\n")
        #expect(result.output == "line one\nline two\ndone\n")
        #expect(result.termination == .exited(0))
    }

    @Test("a program killed by a signal says which, and so does a signal sent to it")
    func diesOfSignal() async throws {
        // Signals at their defaults: the test runner's threads block SIGTERM, and a shell started
        // with it blocked gets it only later.
        let result = try await Self.shell("kill -TERM $$; sleep 5", signals: .defaults)
        #expect(result.termination == .signalled(SIGTERM))
        #expect(result.termination.statusOrSignal == SIGTERM)

        let sent = try await DedicatedThread.run(name: "test-child") { () throws -> (ChildProcess.Termination?, Bool, ChildProcess.Termination) in
            let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exec sleep 60"], standardInput: .nullDevice)
            let before = child.termination
            child.signal(SIGKILL)
            let ended = child.waitUntilExit()
            return (before, child.isRunning, ended)
        }
        #expect(sent.0 == nil)
        #expect(sent.1 == false)
        #expect(sent.2 == .signalled(SIGKILL))
    }

    @Test("waitForExit gives nil while the program runs, and how it ended once it has")
    func timedWait() async throws {
        let (early, late) = try await DedicatedThread.run(name: "test-child") { () throws -> (ChildProcess.Termination?, ChildProcess.Termination?) in
            let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "read line; exit 3"], standardInput: .pipe)
            let early = child.waitForExit(timeout: .milliseconds(50))
            try child.standardInput?.close()
            return (early, child.waitForExit(timeout: .seconds(60)))
        }
        #expect(early == nil)
        #expect(late == .exited(3))
    }

    @Test("a program that cannot be started is an error that names it")
    func missingProgram() {
        #expect {
            _ = try ChildProcess(executable: "/nonexistent/bridge-inspector-test-program")
        } throws: { error in
            "\(error)".contains("/nonexistent/bridge-inspector-test-program")
        }
    }

    @Test("the environment given is the one the program sees")
    func environment() async throws {
        let output = try await DedicatedThread.run(name: "test-child") { () throws -> String in
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", "echo \"$CHILD_PROCESS_TEST\"; echo \"${HOME-unset}\""],
                environment: ["CHILD_PROCESS_TEST": "given"], standardOutput: .pipe)
            let data = try #require(child.standardOutput).readDataToEndOfFile()
            _ = child.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(output == "given\nunset\n")
    }

    @Test("a descriptor the parent has open above 2 is not inherited")
    func descriptorsClosed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("held-open")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        // Without close-on-exec, as a library might leave one.
        let held = open(path, O_RDONLY)
        try #require(held > 2)
        defer { close(held) }
        let result = try await Self.shell("ls -l /proc/self/fd")
        // `ls -l` shows where each descriptor leads: 0 to 2, and the directory ls reads.
        let lines = result.output.split(separator: "\n").filter { $0.contains(" -> ") }
        let numbers = lines.compactMap { line in line.split(separator: " ").dropLast(2).last.flatMap { Int32($0) } }
        #expect(!result.output.contains("held-open"), "\(result.output)")
        #expect(numbers.filter { $0 > 2 }.count <= 1, "\(result.output)")
        #expect(Set(numbers).isSuperset(of: [0, 1, 2]), "\(result.output)")
    }

    @Test("a descriptor another thread opens while children start is not inherited either")
    func descriptorsOpenedMeanwhileClosed() async throws {
        // Another thread opens and closes a file without close-on-exec (as Foundation's file
        // writing does) all the time the children start: a descriptor listed before the spawn
        // could miss one; closed in the child, none is missed. Seen once as a failure of the
        // test above, when another suite wrote a file at the same time.
        let directory = try TemporaryDirectory()
        let path = directory.file("churn")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let stop = Locked(false)
        let stopped = DispatchSemaphore(value: 0)
        DedicatedThread.start(name: "test-churn") {
            while !stop.current {
                let descriptor = open(path, O_RDONLY)
                if descriptor >= 0 { close(descriptor) }
            }
            stopped.signal()
        }
        defer {
            stop.withLock { $0 = true }
            _ = stopped.wait(timeout: .now() + 60)
        }
        let leaks = try await DedicatedThread.run(name: "test-child") { () throws -> [String] in
            var leaks: [String] = []
            for _ in 0..<60 {
                let child = try ChildProcess(
                    executable: "/bin/ls", arguments: ["-l", "/proc/self/fd"], standardInput: .nullDevice, standardOutput: .pipe)
                let output = String(decoding: try #require(child.standardOutput).readDataToEndOfFile(), as: UTF8.self)
                _ = child.waitUntilExit()
                if output.contains("churn") { leaks.append(output) }
            }
            return leaks
        }
        #expect(leaks.isEmpty, "\(leaks.first ?? "")")
    }

    @Test("a new process group when asked, the parent's otherwise")
    func processGroup() async throws {
        // Field 5 of /proc/PID/stat is the process group (the shell's name, field 2, has no space).
        let script = "echo $$; cut -d' ' -f5 /proc/$$/stat"
        let own = try await Self.shell(script, newProcessGroup: true)
        let numbers = own.output.split(separator: "\n").compactMap { Int32($0) }
        try #require(numbers.count == 2, "\(own.output)")
        #expect(numbers[0] == numbers[1])

        let shared = try await Self.shell(script)
        let sharedNumbers = shared.output.split(separator: "\n").compactMap { Int32($0) }
        try #require(sharedNumbers.count == 2, "\(shared.output)")
        #expect(sharedNumbers[1] == getpgrp())
        #expect(sharedNumbers[0] != sharedNumbers[1])
    }

    @Test("signals back to their defaults when asked: a signal the starting thread blocks is not blocked in the child")
    func signalDefaults() async throws {
        let masks = try await DedicatedThread.run(name: "test-child") { () throws -> (String, String) in
            // The mask is the thread's own: block SIGUSR1 on this thread only.
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_BLOCK, &usr1, nil)
            defer { pthread_sigmask(SIG_UNBLOCK, &usr1, nil) }
            func blocked(_ signals: ChildProcess.SignalState) throws -> String {
                // grep started directly: a shell (dash) clears its mask at its start.
                let child = try ChildProcess(
                    executable: "/usr/bin/env", arguments: ["grep", "^SigBlk:", "/proc/self/status"], standardOutput: .pipe, signals: signals)
                let data = try #require(child.standardOutput).readDataToEndOfFile()
                _ = child.waitUntilExit()
                return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "SigBlk:", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return (try blocked(.inherited), try blocked(.defaults))
        }
        // SIGUSR1 is 10 on Linux: bit 9 of the mask, in hexadecimal.
        let inherited = try #require(UInt64(masks.0, radix: 16), "\(masks.0)")
        #expect(inherited & (1 << (UInt64(SIGUSR1) - 1)) != 0)
        #expect(UInt64(masks.1, radix: 16) == 0)
    }

    @Test("a program that stops itself is reported stopped each time, continued, and its exit status comes back")
    func stoppedThenContinued() async throws {
        let (stops, termination) = try await DedicatedThread.run(name: "test-child") { () throws -> (Int, ChildProcess.Termination) in
            // Signals at their defaults, so SIGSTOP's and SIGTSTP's stop is what the shell gets;
            // a group of its own, as the foreground editor has, so the group is continued.
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", "kill -STOP $$; kill -TSTP $$; exit 7"],
                standardInput: .nullDevice, newProcessGroup: true, signals: .defaults)
            var stops = 0
            let ended = child.waitUntilExit(whenStopped: {
                stops += 1
                child.signalGroup(SIGCONT)
            })
            return (stops, ended)
        }
        #expect(stops == 2)
        #expect(termination == .exited(7))
    }

    @Test("a plain wait beside one told of stops: only that one hears of the stop, and both see the one exit")
    func stopLeftToTheCaller() async throws {
        let termination = try await DedicatedThread.run(name: "test-child") { () throws -> ChildProcess.Termination in
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", "kill -STOP $$; exit 3"],
                standardInput: .nullDevice, newProcessGroup: true, signals: .defaults)
            var reported = false
            let waiter = DispatchSemaphore(value: 0)
            let ended = Locked<ChildProcess.Termination?>(nil)
            DedicatedThread.start(name: "test-child-wait") {
                let result = child.waitUntilExit()
                ended.withLock { $0 = result }
                waiter.signal()
            }
            _ = child.waitUntilExit(whenStopped: {
                reported = true
                #expect(child.isRunning)
                child.signal(SIGCONT)
            })
            #expect(reported)
            #expect(waiter.wait(timeout: .now() + 60) == .success)
            return ended.current ?? .exited(-100)
        }
        #expect(termination == .exited(3))
    }

    @Test("200 children in a row with 300 descriptors open (the condition of Foundation's Process crash)")
    func manyChildrenManyDescriptors() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("many")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let descriptors = (0..<300).map { _ in open(path, O_RDONLY | O_CLOEXEC) }
        defer { descriptors.forEach { if $0 >= 0 { close($0) } } }
        try #require(descriptors.allSatisfy { $0 >= 0 })
        let endings = try await DedicatedThread.run(name: "test-child") { () throws -> [ChildProcess.Termination] in
            try (0..<200).map { index in
                let child = try ChildProcess(
                    executable: "/bin/sh", arguments: ["-c", "exit \(index % 5)"], standardInput: .nullDevice, standardOutput: .pipe)
                _ = child.standardOutput?.readDataToEndOfFile()
                return child.waitUntilExit()
            }
        }
        #expect(endings == (0..<200).map { .exited(Int32($0 % 5)) })
    }

    @Test("a descriptor of the caller's becomes the child's stream, and stays the caller's")
    func callerDescriptor() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("log")
        let log = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(log >= 0)
        defer { close(log) }
        let ending = try await DedicatedThread.run(name: "test-child") { () throws -> ChildProcess.Termination in
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", "echo to-log; echo err-to-log >&2"], standardOutput: .descriptor(log),
                standardError: .descriptor(log))
            return child.waitUntilExit()
        }
        #expect(ending == .exited(0))
        #expect(fcntl(log, F_GETFD) >= 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "to-log\nerr-to-log\n")
    }
}
