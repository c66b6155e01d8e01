import BridgeCore
import Foundation

/// Reads a page report that is BridgeCore's message JSON as it stands (the documented shape: an
/// object with `version`, `correlationId`, `type`, a number `timestamp` and `payload` with its
/// `action`) in one pass straight from the text, checking `payload.data` and keeping it as text
/// (BridgeCore's deferred data, built each time it is read): the fast path of
/// ``SentDeliveryDecoder/decode(_:maxDepth:actionOfRequest:)`` for what a host sends nearly
/// always, instead of parsing the whole report into a `JSONValue` first.
///
/// It takes exactly the reports the full reading takes with nothing to normalise (the delivery's
/// `reported` is then `nil`), reading the same values under the same JSON rules (it is BridgeCore's
/// `BridgeMessageReader`), and refuses (`nil`) everything else: a message passed as a JSON string,
/// `status` or `error` at the top level (even `null`), an ISO timestamp, a response without a
/// non-empty action, and anything that is not a message at all. The full reading then reads or
/// explains those, so this reader never has to say why.
///
/// ```swift
/// if let message = DocumentedDeliveryReader.message(in: bytes, maxDepth: 100) { … }   // nil: read the full way
/// ```
enum DocumentedDeliveryReader {
    /// The message `bytes` hold in the documented shape, nested at most `maxDepth` deep, or
    /// `nil` when the report needs the full reading: BridgeCore's own one-pass message reader,
    /// refusing `status` or `error` at the top level, which the full reading moves into
    /// `payload`.
    static func message(in bytes: Data, maxDepth: Int) -> BridgeMessage? {
        JSONParser.reading(bytes, maxDepth: maxDepth) { parser throws(JSONParser.Refusal) in
            try BridgeMessageReader.message(from: &parser, depth: 1, deferringData: true, refusingTopLevelStatus: true)
        }
    }

    /// The correlation id, type and action of the message ``message(in:maxDepth:)`` reads from
    /// `bytes`, or `nil` exactly when it reads none: the same validating pass (BridgeCore's
    /// reader), building no message, no data dictionary and no copy of the text. What the app's
    /// main thread must know of a report at once; the message itself is read later, elsewhere.
    static func head(in bytes: UnsafeRawBufferPointer, maxDepth: Int) -> BridgeMessageReader.Head? {
        BridgeMessageReader.head(in: bytes, maxDepth: maxDepth, refusingTopLevelStatus: true)
    }
}
