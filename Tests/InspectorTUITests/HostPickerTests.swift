import Foundation
@testable import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

@Suite("Host picker")
struct HostPickerTests {
    static let directory = "/tmp/bridge-inspector-501"

    /// A live host that greeted, started `upMs` before ``Fixture/t0``.
    static func listing(_ name: String, pid: Int, version: String = "2.1.0", upMs: Double) -> HostListing {
        let info = WireHostInfo(name: name, pid: pid, hostVersion: version, environment: "ios", startedAt: Fixture.t0 - upMs)
        let hello = AgentHello(
            protocol: WireProtocol.version, agent: "bridge-inspector-agent", host: info, features: [],
            limits: .init(maxFrameBytes: 1 << 20, maxClients: 8))
        return HostListing(socketPath: "\(directory)/\(name)-\(pid).sock", name: name, pid: pid, isLive: true, hello: hello)
    }

    static let hosts = [
        listing("demo-app", pid: 4242, upMs: 60_000),
        listing("wallet-app", pid: 5151, version: "3.0.1", upMs: 5_000),
        // A live host that did not greet: its version and age are unknown.
        HostListing(socketPath: "\(directory)/quiet-app-6262.sock", name: "quiet-app", pid: 6262, isLive: true, hello: nil),
    ]

    static func lines(_ picker: HostPicker) -> [String] {
        picker.render(size: Size(width: 100, height: 12), now: Fixture.t0).lines
    }

    /// The name of the host under the cursor.
    static func selectedName(_ picker: HostPicker) -> String? {
        picker.hosts[safe: picker.cursor]?.name
    }

    @Test("Renders every host with its pid, version, age and socket, and the keys")
    func renders() throws {
        let picker = HostPicker(hosts: Self.hosts)
        let lines = Self.lines(picker)
        #expect(lines[0].contains("Several hosts are running: choose one"))
        let header = try #require(lines.line(containing: "name"))
        for column in ["pid", "version", "up", "socket"] { #expect(header.contains(column)) }
        let demo = try #require(lines.line(containing: "demo-app"))
        #expect(demo.contains("4242") && demo.contains("2.1.0") && demo.contains("\(Self.directory)/demo-app-4242.sock"))
        let wallet = try #require(lines.line(containing: "wallet-app"))
        #expect(wallet.contains("5151") && wallet.contains("3.0.1") && wallet.contains("\(Self.directory)/wallet-app-5151.sock"))
        let quiet = try #require(lines.line(containing: "quiet-app"))
        #expect(quiet.contains("6262") && quiet.contains("?") && quiet.contains("\(Self.directory)/quiet-app-6262.sock"))
        // Hosts in the order given, under the header.
        let order = ["demo-app", "wallet-app", "quiet-app"].compactMap { lines.index(containing: $0) }
        #expect(order == order.sorted() && order.count == 3)
        #expect(lines.contains { $0.contains("j/k move   Enter attach   q quit") })
        #expect(picker.cursor == 0 && picker.chosen == nil && !picker.cancelled)
    }

    @Test("The selected row is highlighted and follows j/k and the arrows, stopping at the ends")
    func moves() throws {
        var picker = HostPicker(hosts: Self.hosts)
        func highlighted() -> String? {
            let buffer = picker.render(size: Size(width: 100, height: 12), now: Fixture.t0)
            return picker.hosts.map(\.name).first { name in
                guard let y = row(containing: name, in: buffer), let x = column(of: name, inRow: y, of: buffer) else { return false }
                return buffer.cell(at: Point(x: x, y: y))?.style == Theme.selection
            }
        }
        #expect(highlighted() == "demo-app")
        picker.handle(.char("j"))
        #expect(Self.selectedName(picker) == "wallet-app")
        #expect(highlighted() == "wallet-app")
        picker.handle(.down)
        #expect(Self.selectedName(picker) == "quiet-app")
        picker.handle(.down)
        picker.handle(.char("j"))
        #expect(Self.selectedName(picker) == "quiet-app", "stops at the last host")
        picker.handle(.char("k"))
        #expect(Self.selectedName(picker) == "wallet-app")
        picker.handle(.up)
        picker.handle(.up)
        picker.handle(.char("k"))
        #expect(Self.selectedName(picker) == "demo-app", "stops at the first host")
        #expect(highlighted() == "demo-app")
        #expect(picker.chosen == nil && !picker.cancelled, "moving chooses nothing")
    }

    @Test("Enter chooses the selected host's socket")
    func enterChooses() {
        var picker = HostPicker(hosts: Self.hosts)
        picker.handle(.down)
        picker.handle(.enter)
        #expect(picker.chosen == "\(Self.directory)/wallet-app-5151.sock")
        #expect(!picker.cancelled)

        var first = HostPicker(hosts: Self.hosts)
        first.handle(.enter)
        #expect(first.chosen == "\(Self.directory)/demo-app-4242.sock")
    }

    @Test("Esc, q and Ctrl-C cancel without choosing", arguments: [Key.escape, Key.char("q"), Key.ctrl("c")])
    func cancels(key: Key) {
        var picker = HostPicker(hosts: Self.hosts)
        picker.handle(.char("j"))
        picker.handle(key)
        #expect(picker.cancelled)
        #expect(picker.chosen == nil)
    }

    @Test("With two hosts, other keys do nothing and Enter on the second chooses it")
    func twoHosts() {
        var picker = HostPicker(hosts: Array(Self.hosts.prefix(2)))
        for key in [Key.char("x"), .tab, .char(" "), .left, .right] { picker.handle(key) }
        #expect(picker.cursor == 0 && picker.chosen == nil && !picker.cancelled)
        picker.handle(.char("j"))
        picker.handle(.char("j"))
        #expect(picker.cursor == 1)
        picker.handle(.enter)
        #expect(picker.chosen == "\(Self.directory)/wallet-app-5151.sock")
    }
}
