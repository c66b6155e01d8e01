/// The keys a field reader knows in one kind of object, for
/// ``JSONParser/readObject(depth:keys:member:)``: matched by their bytes, so no key is made into
/// a `String` or hashed.
///
/// ```swift
/// static let keys = JSONKeySet(
///     ["version", "correlationId", "type", "timestamp", "payload"],
///     writerOrders: [["correlationId", "payload", "timestamp", "type", "version"]])
/// ```
///
/// A name must be plain ASCII without `"` or `\`: then a key in the text equals it exactly when
/// its bytes do (no other spelling of such a name is canonically equivalent to it), which is how
/// the full parser's dictionaries compare keys.
///
/// `writerOrders` are the orders the writers of such objects put their keys in (a message as
/// BridgeCore's writer sorts it, or as the documented shape lists it): reading, the parser
/// expects the key that follows the last one read in that order and compares its bytes at once
/// (``ExpectedJSONKey``), and looks a key up among all the names only when it is another one
/// (issue 30). The order is chosen by the object's first key; it changes only how fast a key is
/// found, never which.
///
/// A class, made once (a `static let`) and never changed: handed to a reader as one reference,
/// where a struct of its six arrays was retained and released array by array on every object
/// read (issue 30).
package final class JSONKeySet: Sendable {
    /// The names, as bytes, in the order given: a match is reported by its position here.
    let names: [[UInt8]]
    /// Each name's `"name":`, at its position; `nil` for a name looked up the general way only.
    let expected: [ExpectedJSONKey?]
    /// Each name as a string value, `"name"`, at its position (``JSONParser/readString(among:)``);
    /// `nil` as in ``expected``.
    let quoted: [ExpectedJSONKey?]
    /// The writers' orders as positions, laid end to end, each ended by `-1`.
    let script: [Int]
    /// Where each writer's order starts in ``script``.
    let orderStarts: [Int]
    /// For order `o` and the name at position `p`, at `o * names.count + p`: where in ``script``
    /// the key after `p` is, in that order (its `-1` when `p` is not in it), to go on from a key
    /// that was looked up.
    let resumptions: [Int]

    /// The set of `names`; at most 64. `writerOrders` lists names of the set in the orders their
    /// writers put them (a name not in the set, or a second mention, is left out).
    package convenience init(_ names: [StaticString], writerOrders: [[StaticString]] = []) {
        func bytes(_ name: StaticString) -> [UInt8] { name.withUTF8Buffer { Array($0) } }
        self.init(bytes: names.map(bytes), orders: writerOrders.map { $0.map(bytes) })
    }

    /// The set of `names` (enumeration raw values, say); at most 64. `writerOrders` as in
    /// ``init(_:writerOrders:)``.
    package convenience init(strings names: [String], writerOrders: [[String]] = []) {
        self.init(bytes: names.map { Array($0.utf8) }, orders: writerOrders.map { $0.map { Array($0.utf8) } })
    }

    private init(bytes: [[UInt8]], orders: [[[UInt8]]]) {
        let names = Array(bytes.prefix(64))
        self.names = names
        // A name given twice is found at its first position: only that one is expected.
        expected = names.indices.map { position in
            names.firstIndex(of: names[position]) == position ? ExpectedJSONKey(names[position]) : nil
        }
        quoted = names.indices.map { position in
            names.firstIndex(of: names[position]) == position ? ExpectedJSONKey(quoting: names[position], then: []) : nil
        }
        var script: [Int] = []
        var starts: [Int] = []
        var resumptions: [Int] = []
        for order in orders {
            let start = script.count
            starts.append(start)
            var positions: [Int] = []
            for name in order {
                guard let position = names.firstIndex(of: name), !positions.contains(position) else { continue }
                positions.append(position)
            }
            script += positions + [-1]
            let end = start + positions.count
            resumptions += names.indices.map { position in positions.firstIndex(of: position).map { start + $0 + 1 } ?? end }
        }
        self.script = script
        orderStarts = starts
        self.resumptions = resumptions
    }

    /// The position of the name spelled by `key`, or `nil`.
    func position(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for (position, name) in names.enumerated() where name.count == key.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(key) }) { return position }
        }
        return nil
    }
}
