import Foundation
import InspectorClient
import TerminalUI

/// Chooses a host when several are running: a list of name, pid, version, socket and age;
/// j/k or arrows to move, Enter to attach, q or Esc to give up.
public struct HostPicker: Sendable {
    /// The hosts offered (live ones only).
    public let hosts: [HostListing]
    /// The highlighted row.
    public private(set) var cursor = 0
    /// Set by Enter: the socket to attach to.
    public private(set) var chosen: String?
    /// Set by q/Esc/Ctrl-C.
    public private(set) var cancelled = false

    /// Creates a picker over `hosts`.
    public init(hosts: [HostListing]) {
        self.hosts = hosts
    }

    /// Applies a key.
    public mutating func handle(_ key: Key) {
        switch key {
        case .char("j"), .down: cursor = min(cursor + 1, max(0, hosts.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .enter: chosen = hosts.indices.contains(cursor) ? hosts[cursor].socketPath : nil
        case .char("q"), .escape, .ctrl("c"): cancelled = true
        default: break
        }
    }

    /// Draws the list.
    public func render(size: Size, now: Double = Date().timeIntervalSince1970 * 1000) -> Buffer {
        var buffer = Buffer(size: size)
        let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let inner = buffer.box(area, style: Theme.borderFocused, title: "Several hosts are running: choose one", titleStyle: Theme.paneTitleFocused)
        guard !inner.isEmpty else { return buffer }
        buffer.write(TextWidth.pad("name", to: 20) + TextWidth.pad("pid", to: 9) + TextWidth.pad("version", to: 10) + TextWidth.pad("up", to: 9) + "socket", at: inner.origin, style: Theme.paneTitle, maxWidth: inner.width)
        for (index, host) in hosts.enumerated() where index + 1 < inner.height - 1 {
            let y = inner.y + 1 + index
            let selected = index == cursor
            let up = host.hello.map { TimeFormat.duration(ms: now - $0.host.startedAt) } ?? "?"
            let line = TextWidth.pad(TextWidth.fit(host.name, to: 19), to: 20) + TextWidth.pad("\(host.pid)", to: 9)
                + TextWidth.pad(host.hello?.host.hostVersion ?? "?", to: 10) + TextWidth.pad(up, to: 9) + host.socketPath
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            buffer.write(line, at: Point(x: inner.x, y: y), style: selected ? Theme.selection : .plain, maxWidth: inner.width)
        }
        buffer.write("j/k move   Enter attach   q quit", at: Point(x: inner.x, y: inner.maxY - 1), style: Theme.dim, maxWidth: inner.width)
        return buffer
    }
}
