/// The newest elements appended, at most ``capacity`` of them, oldest first: what
/// ``BridgeHost/receivedMessages`` holds.
///
/// Appending past the capacity overwrites the oldest element in place, so it costs the same
/// however large the capacity is (an array trimmed with `removeFirst` moves every element on
/// each append). Storage grows with what is appended, never to the capacity up front, so a
/// huge capacity (no cap in practice) costs nothing until it is used.
///
/// ```swift
/// var log = RingBuffer<Int>(capacity: 2)
/// log.append(1); log.append(2); log.append(3)
/// log.elements          // [2, 3]
/// log.capacity = 1      // trims at once: [3]
/// ```
struct RingBuffer<Element> {
    /// The elements; once full (`storage.count == capacity`), the oldest is at `head` and the
    /// order wraps around the end. While not full, `head` is 0 and `storage` is in order.
    private var storage: [Element] = []
    private var head = 0

    /// The most elements it holds (never negative). Lowering it drops the oldest at once;
    /// changing it puts the storage back in order, so it costs one pass over the elements.
    var capacity: Int {
        didSet {
            capacity = max(0, capacity)
            guard capacity != oldValue else { return }
            let kept = elements.suffix(capacity)
            storage = Array(kept)
            head = 0
        }
    }

    /// An empty buffer holding at most `capacity` elements (none if it is not positive).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many elements it holds.
    var count: Int { storage.count }

    /// Whether it holds nothing.
    var isEmpty: Bool { storage.isEmpty }

    /// The elements, oldest first. Costs nothing while the buffer has not wrapped (it is the
    /// storage itself) and one copy once it has.
    var elements: [Element] {
        guard head != 0 else { return storage }
        var ordered: [Element] = []
        ordered.reserveCapacity(storage.count)
        ordered.append(contentsOf: storage[head...])
        ordered.append(contentsOf: storage[..<head])
        return ordered
    }

    /// Appends `element`, dropping the oldest when full (and keeping nothing at capacity 0).
    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
        } else if capacity > 0 {
            storage[head] = element
            head += 1
            if head == capacity { head = 0 }
        }
    }

    /// Forgets every element, keeping the capacity.
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
