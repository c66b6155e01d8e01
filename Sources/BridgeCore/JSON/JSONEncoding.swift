import Foundation

/// The one way out of the project into JSON bytes through `Encodable`: one configuration for
/// every file, frame and line the package writes, so the same value is spelled the same
/// everywhere (keys sorted, `/` not escaped) and a diff of two outputs shows only what changed.
///
/// ```swift
/// let line = try JSONEncoding.encode(report)                 // one compact line
/// let file = try JSONEncoding.encode(rules, pretty: true)     // indented, for a person to edit
/// ```
///
/// Messages themselves are written by `BridgeMessageWriter`, which needs no `Encodable`; this is
/// for everything else (``JSONDecoding`` is the way in).
package enum JSONEncoding {
    /// The shared compact encoder: sorted keys, slashes unescaped.
    package static let compact: JSONEncoder = makeEncoder(pretty: false)
    /// The shared indented encoder, for files a person reads or edits.
    package static let pretty: JSONEncoder = makeEncoder(pretty: true)

    /// `value` as JSON bytes, compact (one line) or `pretty`.
    package static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        try (pretty ? Self.pretty : compact).encode(value)
    }

    /// A new encoder with the package's configuration, for a caller that must set more (a date
    /// strategy); almost every caller wants ``encode(_:pretty:)``.
    package static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
