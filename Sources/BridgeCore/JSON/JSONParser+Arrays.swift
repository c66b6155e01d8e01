import Foundation

/// Reading an array's elements straight from the text, as the field readers
/// (`JSONParser+Fields.swift`) read an object's members: how a frame that carries a list of
/// records (a snapshot's log) is read one record at a time, with no `JSONValue` for the list.
extension JSONParser {
    /// Reads the array at the current byte, `depth` levels deep (the whole text is level 1),
    /// calling `element` with the parser at each element in turn; `element` must read it (an
    /// object in it is at level `depth + 1`). Refuses what ``JSONParser/read(_:maxDepth:)``
    /// refuses: no array here, nesting past the limit, a missing `,` or `]`.
    ///
    /// ```swift
    /// try parser.readArray(depth: 3) { parser throws(JSONParser.Refusal) in
    ///     records.append(try record(from: &parser))
    /// }
    /// ```
    package mutating func readArray(depth: Int, element: (inout JSONParser) throws(Refusal) -> Void) throws(Refusal) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw Refusal() }
        do throws(Failure) { try checkDepth(depth) } catch { throw Refusal() }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        var ended = false
        repeat {
            skipWhitespace()
            try element(&self)
            do throws(Failure) { ended = try ends(UInt8(ascii: "]")) } catch { throw Refusal() }
        } while !ended
    }
}
