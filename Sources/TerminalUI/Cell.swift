/// One terminal cell of a ``Buffer``: a grapheme cluster, how many columns it spans, and its style.
///
/// A character wider than one column (CJK, most emoji) is stored in its first column as a
/// *lead* cell with `width == 2`, followed by a *continuation* cell (`width == 0`, empty text)
/// that only carries the style. Backends draw lead cells and skip continuations.
///
/// Cells are made by ``Buffer`` only, which guarantees the invariants a backend relies on:
/// ``text`` never contains a character ``Sanitizer`` would escape, a lead cell is always
/// followed by exactly `width - 1` continuations, and a wide character never crosses the
/// buffer's right edge.
public struct Cell: Hashable, Sendable {
    /// The grapheme cluster to draw (`" "` for a blank cell, `""` for a continuation).
    public private(set) var text: String
    /// Columns the cluster spans: 1 for most characters, 2 for wide ones, 0 for a continuation.
    public private(set) var width: Int
    /// Colours and attributes of this cell.
    public private(set) var style: Style

    init(text: String, width: Int, style: Style) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// True for the second column of a wide character; backends skip these.
    public var isContinuation: Bool { width == 0 }

    /// An empty cell: a space in the terminal's default style. New buffers are filled with it.
    public static let blank = Cell(text: " ", width: 1, style: .plain)

    static func space(_ style: Style) -> Cell { Cell(text: " ", width: 1, style: style) }
    static func continuation(_ style: Style) -> Cell { Cell(text: "", width: 0, style: style) }
}
