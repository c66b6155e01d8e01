import Foundation
import InspectorClient
import SocketSupport
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Following a host by name across runs (issue 12): which socket `--host NAME` picks, and the
/// marker line `record --host NAME` writes when the host is run again.
@Suite("Following a host by name: choosing the host, marking its restarts")
struct HostFollowingTests {
    /// A socket someone listens on, named `<name>.<pid>.sock`, modified at `time`.
    private func listen(_ directory: String, _ name: String, pid: Int32, modified time: Date) throws -> UnixListener {
        let path = SocketDirectory(path: directory).socketPath(for: SocketName(name: name, pid: pid))
        let listener = try UnixListener(path: path)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
        return listener
    }

    @Test("--host NAME follows; NAME.PID is exactly one process; a name may itself hold dots", arguments: [
        ("my-app", "my-app", nil as Int32?),
        ("my-app.4211", "my-app", 4211),
        ("my.app", "my.app", nil),
        ("my.app.12", "my.app", 12),
        (".12", ".12", nil),
        ("app.", "app.", nil),
        ("app.+5", "app.+5", nil),
        ("app.0", "app.0", nil),
        ("app.99999999999", "app.99999999999", nil),
    ])
    func parsing(text: String, name: String, pid: Int32?) {
        let target = HostTarget(parsing: text)
        #expect(target.name == name)
        #expect(target.pid == pid)
        #expect(target.follows == (pid == nil))
        #expect(target.description == text)
    }

    @Test("No host of the name: nil, so the caller waits; a stale socket of the name is not a host")
    func noneRunning() throws {
        try withTemporaryDirectory(prefix: "bi-follow") { directory in
            let other = try listen(directory, "other-app", pid: 10, modified: Date())
            defer { other.close() }
            let follower = HostFollower(target: HostTarget(parsing: "my-app"), directory: SocketDirectory(path: directory))
            #expect(try follower.newest() == nil)
            let old = try listen(directory, "my-app", pid: 11, modified: Date())
            old.close()  // the process ended and left its socket behind (stale)
            if FileManager.default.fileExists(atPath: "\(directory)/my-app.11.sock") {
                #expect(try follower.newest() == nil)
            }
        }
    }

    @Test("Several live hosts of the name: the newest socket is taken, and the note says so")
    func newestOfSeveral() throws {
        try withTemporaryDirectory(prefix: "bi-follow") { directory in
            let now = Date()
            let older = try listen(directory, "my-app", pid: 300, modified: now.addingTimeInterval(-60))
            let newer = try listen(directory, "my-app", pid: 200, modified: now)
            let unrelated = try listen(directory, "my-app-2", pid: 400, modified: now.addingTimeInterval(60))
            defer { [older, newer, unrelated].forEach { $0.close() } }
            let found = try #require(try HostFollower(target: HostTarget(parsing: "my-app"), directory: SocketDirectory(path: directory)).newest())
            #expect(found.socket.name.pid == 200)
            #expect(found.passedOver.map(\.name.pid) == [300])
            #expect(found.note == "2 hosts named my-app are running; attached to the newest, pid 200")

            let pinned = try #require(try HostFollower(target: HostTarget(parsing: "my-app.300"), directory: SocketDirectory(path: directory)).newest())
            #expect(pinned.socket.name.pid == 300)
            #expect(pinned.note == nil)
        }
    }

    @Test("A restart marker line is its own kind: written with both pids, read back apart from the frames")
    func restartMarkerLine() throws {
        let restart = Recording.HostRestart(time: 3000, host: "my-app", endedPid: 4211, attachedPid: 4302, socket: "/tmp/b/my-app.4302.sock")
        let line = String(decoding: restart.line, as: UTF8.self)
        #expect(line == #"{"kind":"hostRestarted","time":3000,"host":"my-app","endedPid":4211,"attachedPid":4302,"socket":"/tmp/b/my-app.4302.sock"}"#)
        let header = #"{"kind":"recording","version":1,"socket":"/tmp/b/my-app.4211.sock","startedAt":2000,"client":"bridge-inspector record"}"#
        let first = #"{"environment":"ios","hostVersion":"1.0","name":"my-app","pid":4211,"startedAt":1000}"#
        let second = #"{"environment":"ios","hostVersion":"1.0","name":"my-app","pid":4302,"startedAt":2500}"#
        func hello(_ host: String) -> String { #"{"kind":"hello","protocol":1,"agent":"a","host":\#(host),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"# }
        func snapshot(_ host: String) -> String {
            #"{"kind":"snapshot","seq":0,"state":{"host":\#(host),"journeyAttached":false,"lastError":null,"errorHistory":[],"messages":[],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":0,"sent":0}}}"#
        }
        let text = [header, hello(first), snapshot(first), line, hello(second), snapshot(second)].joined(separator: "\n") + "\n"
        let contents = Recording.load(data: Data(text.utf8))
        #expect(contents.problem == nil, "\(String(describing: contents.problem))")
        #expect(contents.frames.count == 4)
        #expect(contents.linesRead == 6)
        var expected = restart
        expected.beforeFrame = 2
        #expect(contents.restarts == [expected])
        // Replayed, the frames alone mark the restart with both pids.
        var state = LiveState()
        for frame in contents.frames { state.apply(frame, at: 0) }
        #expect(state.log.contains { $0.kind == .hostRestarted(name: "my-app", endedPid: 4211, attachedPid: 4302) })
        // A marker cut off as the last line is a cut-off line, like any other.
        let cut = Recording.load(data: Data((text + String(line.prefix(30))).utf8))
        #expect(cut.problem?.line == 7)
    }
}
