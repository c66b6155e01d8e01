import Testing
import TerminalUI
@testable import CursesBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("EventLoop (no curses)")
struct EventLoopTests {
    @Test("Timeouts are clamped to 0…250 ms")
    func clamp() {
        #expect(EventLoop.milliseconds(.seconds(5)) == 250)
        #expect(EventLoop.milliseconds(.milliseconds(40)) == 40)
        #expect(EventLoop.milliseconds(.milliseconds(-3)) == 0)
    }

    @Test("A write from another thread to a watched descriptor ends the wait and reports it")
    func wakeFromThread() async throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var wakeFds: [Int32] = [-1, -1]
        #expect(pipe(&wakeFds) == 0)
        defer { close(wakeFds[0]); close(wakeFds[1]) }
        let wakeRead = wakeFds[0]
        let wakeWrite = wakeFds[1]
        let loop = EventLoop(inputDescriptor: fds[0])
        loop.watch(wakeRead)
        loop.watch(wakeRead)
        #expect(loop.watched == [wakeRead])

        let idle = loop.next(timeout: .milliseconds(10))
        #expect(idle.timedOut)

        let waker = Task.detached { write(wakeWrite, "w", 1) }
        #expect(await waker.value == 1)
        let tick = loop.next(timeout: .milliseconds(250))
        #expect(tick.isReady(wakeRead))
        #expect(!tick.inputReady)
        var drained = [UInt8](repeating: 0, count: 4)
        #expect(read(wakeRead, &drained, 4) == 1)
        #expect(loop.next(timeout: .milliseconds(10)).timedOut)

        #expect(write(fds[1], "x", 1) == 1)
        let input = loop.next(timeout: .milliseconds(250))
        #expect(input.inputReady)
        #expect(input.ready.isEmpty)

        loop.unwatch(wakeRead)
        #expect(write(wakeWrite, "w", 1) == 1)
        var drainInput = [UInt8](repeating: 0, count: 4)
        _ = read(fds[0], &drainInput, 4)
        #expect(loop.next(timeout: .milliseconds(10)).timedOut)
    }

    @Test("A closed terminal input is reported")
    func inputClosed() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        close(fds[1])
        defer { close(fds[0]) }
        let tick = EventLoop(inputDescriptor: fds[0]).next(timeout: .milliseconds(100))
        #expect(tick.inputClosed)
    }
}
