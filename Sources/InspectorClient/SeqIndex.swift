/// The log index of each sequence number: what `LiveState` looks up to "jump to cause" and to
/// find a row an edit names, set once for every row it adds.
///
/// The agent numbers its events in order, so nearly every row comes with a larger number than
/// the one before: those are appended to one sorted array (no hashing, 16 bytes a row) and
/// found by binary search; a number that is not larger (an older agent's log merged, a record
/// given again) goes to a dictionary, looked at first, so the last index set for a number wins,
/// as in the dictionary this replaces (issue 30: hashing every row's number cost about 300
/// instructions a frame).
///
/// ```swift
/// var index = SeqIndex()
/// index.set(0, for: 41)
/// index[41]   // 0
/// ```
struct SeqIndex: Sendable {
    /// Rows whose number was larger than every number before it, in that (ascending) order.
    private var ordered: [(seq: Int, index: Int)] = []
    /// The other rows, by number.
    private var others: [Int: Int] = [:]

    /// The index last set for `seq`, if any.
    subscript(seq: Int) -> Int? {
        if !others.isEmpty, let index = others[seq] { return index }
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = low + (high - low) / 2
            if ordered[middle].seq < seq { low = middle + 1 } else { high = middle }
        }
        return low < ordered.count && ordered[low].seq == seq ? ordered[low].index : nil
    }

    /// Notes that the row for `seq` is at `index` (replacing what was set for it before).
    mutating func set(_ index: Int, for seq: Int) {
        if let last = ordered.last, seq <= last.seq {
            others[seq] = index
        } else {
            ordered.append((seq, index))
        }
    }

    /// Forgets every number.
    mutating func removeAll() {
        ordered.removeAll()
        others.removeAll()
    }
}
