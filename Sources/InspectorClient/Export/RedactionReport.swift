/// What a ``Redactor`` replaced, to tell the person who will share the file
/// (`redact` and `export --har` print ``summary`` on standard error).
public struct RedactionReport: Sendable, Hashable {
    /// Images replaced by their descriptor (a data URL of an `image/` type, or base64 whose bytes
    /// are a PNG or JPEG).
    public var images = 0
    /// Other base64 (and long base64-like runs) replaced by their descriptor.
    public var otherBase64 = 0
    /// Values of the fields the person named (`--field`) replaced by a token.
    public var namedFields = 0
    /// The 1-based numbers of the lines left out of a redacted recording because they were not
    /// JSON (so they could not be redacted with certainty).
    public var droppedLines: [Int] = []

    /// Creates an empty report.
    public init() {}

    /// How many values were replaced.
    public var replaced: Int { images + otherBase64 + namedFields }

    /// One line for a person: "redacted 2 images, 0 other base64 values, 1 named field; dropped
    /// 1 line that was not JSON (line 7)".
    public var summary: String {
        var text = "redacted \(Self.count(images, "image")), \(Self.count(otherBase64, "other base64 value")), \(Self.count(namedFields, "named field"))"
        if !droppedLines.isEmpty {
            let shown = droppedLines.prefix(10).map(String.init).joined(separator: ", ")
            let more = droppedLines.count > 10 ? ", …" : ""
            text += "; dropped \(Self.count(droppedLines.count, "line")) that \(droppedLines.count == 1 ? "was" : "were") not JSON (line\(droppedLines.count == 1 ? "" : "s") \(shown)\(more))"
        }
        return text
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
