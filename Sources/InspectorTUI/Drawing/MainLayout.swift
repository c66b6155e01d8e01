import TerminalUI

/// Where each part of the main screen goes, for a terminal size. Update and render both use it,
/// so scrolling and drawing always agree.
///
/// Wide terminals put pending requests and slots in a column to the right of the messages;
/// narrow ones stack them below. Anything smaller than ``minimumSize`` shows a "too small" notice.
struct MainLayout: Equatable {
    static let minimumSize = Size(width: 60, height: 16)

    let size: Size
    let status: Rect
    let errorBanner: Rect
    private(set) var messages: Rect
    private(set) var pending: Rect
    private(set) var slots: Rect
    let footer: Rect

    var isTooSmall: Bool { size.width < Self.minimumSize.width || size.height < Self.minimumSize.height }

    /// Rows of messages visible inside the Messages box.
    var messageRows: Int { max(0, messages.height - 2) }

    /// The layout for a terminal of `size`; with `zoomed`, that pane takes the whole body and the
    /// others get no room (`z`: mitmproxy's and tmux's zoom).
    init(size: Size, zoomed: Pane? = nil) {
        self.size = size
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let rows = screen.rows(.fixed(1), .fixed(1), .min(0), .fixed(1))
        status = rows[0]
        errorBanner = rows[1]
        footer = rows[3]
        let body = rows[2]
        // Two slots of two lines each, plus the box; one line each when the screen is short,
        // so the messages keep a few rows at the minimum size.
        let slotHeight = body.height >= 20 || size.width >= 110 ? 6 : 4
        if size.width >= 110 {
            let columns = body.columns(.min(0), .fixed(min(52, size.width / 3)))
            messages = columns[0]
            let side = columns[1].rows(.min(0), .fixed(slotHeight))
            pending = side[0]
            slots = side[1]
        } else {
            let pendingHeight = max(4, min(8, body.height / 4))
            let stacked = body.rows(.min(0), .fixed(pendingHeight), .fixed(slotHeight))
            messages = stacked[0]
            pending = stacked[1]
            slots = stacked[2]
        }
        if let zoomed {
            let none = Rect(x: body.x, y: body.y, width: 0, height: 0)
            messages = zoomed == .messages ? body : none
            pending = zoomed == .pending ? body : none
            slots = zoomed == .slots ? body : none
        }
    }

    /// The box of `pane` (empty for a pane the zoom hides).
    func rect(of pane: Pane) -> Rect {
        switch pane {
        case .messages: messages
        case .pending: pending
        case .slots: slots
        }
    }

    /// The pane whose box (border and title included) holds `point`, or `nil` for the status
    /// line, the lastError banner, the footer and a terminal too small to show the panes: what
    /// the mouse points at, in the layout that is drawn.
    func pane(at point: Point) -> Pane? {
        guard !isTooSmall else { return nil }
        return Pane.allCases.first { rect(of: $0).contains(point) }
    }
}
