/// A cell position on screen: `x` is the column, `y` the row, both counted from 0 at the top left.
///
/// ```swift
/// buffer.write("ready", at: Point(x: 2, y: 0))
/// ```
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// Column, 0 is the leftmost.
    public var x: Int
    /// Row, 0 is the top.
    public var y: Int

    /// Creates a position from a column and a row.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left corner, `(0, 0)`.
    public static let zero = Point(x: 0, y: 0)

    /// `"(x, y)"`, for test failure messages and logs.
    public var description: String { "(\(x), \(y))" }
}
