import Foundation
import TestSupport
import Testing
import ThreadSupport

/// The package's two concurrency tools (docs/concurrency.md).
@Suite("ThreadSupport: the one lock type and the one way to start a thread")
struct ThreadSupportTests {
    @Test("Locked: increments from several threads at once are none of them lost")
    func lockedIsExclusive() async throws {
        let counter = Locked(0)
        let threads = 4
        let increments = 20_000
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<threads {
                group.addTask {
                    await DedicatedThread.run(name: "test-locked-\(index)") {
                        for _ in 0..<increments { counter.withLock { $0 += 1 } }
                    }
                }
            }
        }
        #expect(counter.current == threads * increments)
    }

    @Test("Locked: withLock returns what its body returns and rethrows what it throws, keeping the change made before")
    func lockedReturnsAndRethrows() {
        struct Refused: Error {}
        let box = Locked([1, 2])
        #expect(box.withLock { values -> Int in
            values.append(3)
            return values.count
        } == 3)
        #expect(throws: Refused.self) {
            try box.withLock { values in
                values.append(4)
                throw Refused()
            }
        }
        #expect(box.current == [1, 2, 3, 4])
    }

    @Test("DedicatedThread.run: the work runs on a new thread with the given name and stack, and its result comes back")
    func runOnNamedThread() async throws {
        let callerNumber = pthread_self()
        let seen = try await DedicatedThread.run(name: "test-dedicated", stackSize: 1 << 20) { () throws -> (String, Bool, Bool, Int) in
            (Self.osThreadName(), pthread_equal(pthread_self(), callerNumber) != 0, Thread.isMainThread, Thread.current.stackSize)
        }
        // The name the system shows (ps, top -H, gdb), not Foundation's copy of it.
        #expect(seen.0 == "test-dedicated")
        #expect(!seen.1, "the work ran on the caller's thread")
        #expect(!seen.2, "the work ran on the main thread")
        #expect(seen.3 >= 1 << 20)
    }

    @Test("DedicatedThread.run: an error thrown on the thread is thrown to the caller")
    func runThrows() async {
        struct Broken: Error, Equatable {}
        await #expect(throws: Broken.self) {
            try await DedicatedThread.run(name: "test-throws") { () throws -> Int in throw Broken() }
        }
    }

    @Test("DedicatedThread.start: returns at once and the work runs by itself")
    @MainActor
    func startReturnsAtOnce() async {
        let gate = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        DedicatedThread.start(name: "test-start") {
            gate.wait()
            finished.withLock { $0 = true }
        }
        // Returned while the thread still waits for the gate.
        #expect(finished.current == false)
        gate.signal()
        #expect(await eventually { finished.current })
    }

    /// The calling thread's name as the operating system keeps it.
    static func osThreadName() -> String {
        #if os(Linux)
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .newlines)
        #else
        return Thread.current.name ?? ""
        #endif
    }
}
