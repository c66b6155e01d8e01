import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing
import SocketSupport

@Suite struct WakePipeAndPollTests {
    @Test func repeatedWakesWriteOneByteAndDrainClearsIt() throws {
        let pipe = try WakePipe()
        defer { pipe.close() }
        #expect(isCloseOnExec(pipe.readDescriptor))
        #expect(try Poll.wait(descriptor: pipe.readDescriptor, for: .readable, timeoutMilliseconds: 0).isEmpty)

        pipe.wake()
        pipe.wake()
        pipe.wake()
        #expect(pipe.isSignalled)
        #expect(try Poll.wait(descriptor: pipe.readDescriptor, for: .readable, timeoutMilliseconds: 0).contains(.readable))
        // Three wakes wrote a single byte.
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { read(pipe.readDescriptor, $0.baseAddress, $0.count) }
        #expect(count == 1)

        pipe.drain()
        #expect(!pipe.isSignalled)
        #expect(try Poll.wait(descriptor: pipe.readDescriptor, for: .readable, timeoutMilliseconds: 0).isEmpty)

        // After a drain, the next wake signals again.
        pipe.wake()
        #expect(try Poll.wait(descriptor: pipe.readDescriptor, for: .readable, timeoutMilliseconds: 0).contains(.readable))
        pipe.drain()

        pipe.close()
        pipe.wake()
        #expect(pipe.readDescriptor == -1)
    }

    @Test func wakeFromAnotherThreadEndsAPoll() async throws {
        let pipe = try WakePipe()
        defer { pipe.close() }
        // A thread of its own: a task could wait behind other tests for the cooperative pool.
        let waker = Thread { pipe.wake() }
        waker.start()
        var woke = false
        for _ in 0..<400 where !woke {
            var entries = [PollDescriptor(descriptor: pipe.readDescriptor, events: .readable)]
            try Poll.wait(&entries, timeoutMilliseconds: 50)
            woke = entries[0].returnedEvents.contains(.readable)
        }
        #expect(woke)
        pipe.drain()
    }

    @Test func pollReportsOnlyTheReadyDescriptor() throws {
        let quiet = try WakePipe()
        let ready = try WakePipe()
        defer { quiet.close(); ready.close() }
        ready.wake()
        var entries = [
            PollDescriptor(descriptor: quiet.readDescriptor, events: .readable),
            PollDescriptor(descriptor: ready.readDescriptor, events: .readable),
        ]
        let count = try Poll.wait(&entries, timeoutMilliseconds: 0)
        #expect(count == 1)
        #expect(entries[0].returnedEvents.isEmpty)
        #expect(entries[1].returnedEvents == .readable)
    }
}
