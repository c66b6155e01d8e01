/// A size in terminal cells: `width` columns by `height` rows.
///
/// Used for the terminal size (``KeyEvent/resize(_:)``, the curses backend's `size`)
/// and for ``Buffer`` dimensions.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Number of columns.
    public var width: Int
    /// Number of rows.
    public var height: Int

    /// Creates a size; negative values are clamped to 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// `"WxH"`, for test failure messages and logs.
    public var description: String { "\(width)x\(height)" }
}
