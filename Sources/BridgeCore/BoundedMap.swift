/// A dictionary that forgets its oldest keys beyond a capacity.
package struct BoundedMap<Value> {
    private var values: [String: (value: Value, generation: Int)] = [:]
    private var order: [(key: String, generation: Int)] = []
    private var head = 0
    private var generation = 0
    package let capacity: Int

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package subscript(key: String) -> Value? {
        get { values[key]?.value }
        set {
            guard let newValue else {
                values.removeValue(forKey: key)
                return
            }
            if let existing = values[key] {
                values[key] = (newValue, existing.generation)
                return
            }
            generation += 1
            values[key] = (newValue, generation)
            order.append((key, generation))
            while values.count > capacity, head < order.count {
                let oldest = order[head]
                head += 1
                if values[oldest.key]?.generation == oldest.generation { values.removeValue(forKey: oldest.key) }
            }
            if head > capacity {
                order.removeFirst(head)
                head = 0
            }
        }
    }
}
