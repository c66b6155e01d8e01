import Foundation

/// The text of a JSON object that was checked but not built: a message's `payload.data` that an
/// inspector reads from the agent's frames and, for nearly every message, never looks into (its
/// rows keep the message's bytes). Building it is the largest part of reading a message, so it is
/// built when `data` is read, from this text, by the same parser and rule that checked it
/// (issue 30).
///
/// Immutable (the text and the depth it may nest to), so a message that holds one can be sent
/// and read from any thread; each read of `data` builds the value anew.
struct DeferredJSONObject: Sendable {
    /// The object's text, exactly as it stood in the message: usually a slice of the message's
    /// own bytes (`BridgeMessageReader.messageKeepingBytes(from:depth:)`), so its indices need
    /// not start at 0.
    let text: Data
    /// The levels it may nest to, counting itself: what was left of the limit it was checked under.
    let maxDepth: Int

    /// The object, as `JSONParser` builds it from ``text``. The text was checked by the same
    /// parser under the same limit, so it is an object; an empty one stands in if that were ever
    /// not so.
    var value: [String: JSONValue] {
        guard case .object(let object)? = JSONParser.parse(text, maxDepth: maxDepth) else { return [:] }
        return object
    }
}
