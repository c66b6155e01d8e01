/// A rectangle of cells, the unit of layout: panes, bars and dialogs are all `Rect`s
/// carved out of the buffer's ``Buffer/area``.
///
/// Splitting follows the ratatui model: describe each part with a ``Constraint`` and get
/// back one `Rect` per part, in order.
///
/// ```swift
/// let screen = buffer.area
/// let parts = screen.rows(.fixed(1), .min(3), .fixed(1))       // header, body, status line
/// let panes = parts[1].columns(.fraction(0.4), .min(10))        // list | detail
/// let dialog = screen.centered(width: 50, height: 7)
/// let inner = buffer.box(dialog, title: "Filter")                // border, returns the inside
/// ```
///
/// Sizes never go negative: insetting or splitting a too-small rectangle yields empty
/// rectangles (``isEmpty``), which drawing code can simply skip.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Leftmost column.
    public var x: Int
    /// Top row.
    public var y: Int
    /// Number of columns (never negative).
    public var width: Int
    /// Number of rows (never negative).
    public var height: Int

    /// Creates a rectangle; a negative width or height is clamped to 0.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Creates a rectangle from its top-left corner and size.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The top-left corner.
    public var origin: Point { Point(x: x, y: y) }
    /// Width and height as a ``Size``.
    public var size: Size { Size(width: width, height: height) }
    /// One past the rightmost column (`x + width`).
    public var maxX: Int { x + width }
    /// One past the bottom row (`y + height`).
    public var maxY: Int { y + height }
    /// True when the rectangle holds no cell; drawing into it is a no-op.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// `"(x, y) WxH"`, for test failure messages and logs.
    public var description: String { "(\(x), \(y)) \(width)x\(height)" }

    /// Whether the cell at `point` lies inside the rectangle (for mouse hit-testing).
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The overlap of two rectangles (empty, placed at the clamped corner, when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Shrinks the rectangle by `amount` cells on every side, e.g. `rect.inset(1)` for the inside of a border.
    public func inset(_ amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// Shrinks the rectangle by the given number of cells on each side (padding).
    ///
    /// The result never has a negative size and never extends outside `self`.
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let left = min(max(0, left), width)
        let top = min(max(0, top), height)
        return Rect(
            x: x + left,
            y: y + top,
            width: width - left - max(0, right),
            height: height - top - max(0, bottom)
        )
    }

    /// A rectangle of the given size centred in this one (clamped to fit): the place for a dialog.
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(max(0, width), self.width)
        let h = min(max(0, height), self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }

    /// How much of one axis a part of a split takes. See `rows(_:)` and `columns(_:)`.
    ///
    /// Sizes are settled in three steps: ``fixed`` and ``fraction`` parts take their share,
    /// ``min`` parts take their minimum and then split whatever is left equally (earlier parts
    /// get the odd cells). When the space is too small, later parts shrink first, so put what
    /// must stay visible (a header, the main pane) before what may vanish.
    public enum Constraint: Hashable, Sendable {
        /// Exactly this many cells (if there is room).
        case fixed(Int)
        /// This share of the whole length, e.g. `0.3`. Consecutive fractions are rounded
        /// together so `[.fraction(0.5), .fraction(0.5)]` always covers an odd length fully.
        case fraction(Double)
        /// At least this many cells, plus an equal part of any space left over. `.min(0)` means "fill".
        case min(Int)
    }

    /// Splits the rectangle top to bottom: one full-width `Rect` per constraint, in order.
    ///
    /// ```swift
    /// let parts = area.rows(.fixed(1), .min(0), .fixed(1))   // title bar, body, status bar
    /// ```
    public func rows(_ constraints: Constraint...) -> [Rect] { rows(constraints) }

    /// Splits the rectangle top to bottom; the array form of the variadic `rows(_:)`.
    public func rows(_ constraints: [Constraint]) -> [Rect] {
        var top = y
        return Self.lengths(constraints, total: height).map { length in
            defer { top += length }
            return Rect(x: x, y: top, width: width, height: length)
        }
    }

    /// Splits the rectangle left to right: one full-height `Rect` per constraint, in order.
    ///
    /// ```swift
    /// let panes = body.columns(.fixed(30), .min(20))   // message list | detail
    /// ```
    public func columns(_ constraints: Constraint...) -> [Rect] { columns(constraints) }

    /// Splits the rectangle left to right; the array form of the variadic `columns(_:)`.
    public func columns(_ constraints: [Constraint]) -> [Rect] {
        var left = x
        return Self.lengths(constraints, total: width).map { length in
            defer { left += length }
            return Rect(x: left, y: y, width: length, height: height)
        }
    }

    /// Resolves constraints into lengths that never sum to more than `total`.
    static func lengths(_ constraints: [Constraint], total: Int) -> [Int] {
        let total = max(0, total)
        var cumulativeFraction = 0.0
        var wanted: [Int] = constraints.map { constraint in
            switch constraint {
            case .fixed(let n):
                return max(0, n)
            case .fraction(let f):
                let f = f.isFinite ? Swift.min(Swift.max(f, 0), 1) : 0
                let start = Int((Double(total) * cumulativeFraction).rounded())
                cumulativeFraction += f
                let end = Int((Double(total) * cumulativeFraction).rounded())
                return max(0, end - start)
            case .min(let n):
                return max(0, n)
            }
        }
        let flexible = constraints.indices.filter {
            if case .min = constraints[$0] { return true }
            return false
        }
        let leftover = total - wanted.reduce(0, +)
        if leftover > 0, !flexible.isEmpty {
            let share = leftover / flexible.count
            let extra = leftover % flexible.count
            for (n, index) in flexible.enumerated() {
                wanted[index] += share + (n < extra ? 1 : 0)
            }
        }
        var remaining = total
        return wanted.map { length in
            let granted = Swift.min(length, remaining)
            remaining -= granted
            return granted
        }
    }
}
