/// A notice the inspector showed above the footer (``Flash``), kept for the action log (`A`):
/// a notice is on screen for a few seconds and may be longer than the screen shows at once, so
/// the log keeps every one, in full, with its time.
public struct NoticeRecord: Sendable, Equatable {
    /// When it was shown (milliseconds since 1970).
    public var time: Double
    /// The text, in full (host errors verbatim; sanitised when drawn).
    public var text: String
    /// Whether it reported a failure.
    public var isError: Bool
    /// How many times in a row it was shown (the same key pressed again, the same refusal).
    public var repeats: Int = 1

    /// The most notices kept: the oldest go first.
    public static let limit = 500
}
