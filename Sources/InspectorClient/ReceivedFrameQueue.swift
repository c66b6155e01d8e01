/// The frames a ``ClientConnectionStateMachine`` has read and not handed out yet, oldest first.
///
/// An array and the place of the oldest: a frame is appended where it lands and taken out by
/// moving it (its slot left empty); the array is emptied, keeping its memory, once every frame in
/// it has been taken, and its taken slots are dropped once they are most of it. A `Deque`'s
/// append cost some 260 instructions a frame, a tenth of what a following client did besides
/// decoding (issue 30).
struct ReceivedFrameQueue: Sendable {
    private var slots: [ClientConnectionStateMachine.ReceivedFrame?] = []
    /// The slot of the oldest frame not taken; every slot before it is empty.
    private var head = 0

    /// Whether no frame is waiting.
    var isEmpty: Bool { head == slots.count }

    /// How many frames are waiting.
    var count: Int { slots.count - head }

    /// The slots held, taken or not: what the queue's memory grows with.
    var heldSlots: Int { slots.count }

    /// Adds `frame` after the others.
    mutating func append(_ frame: consuming ClientConnectionStateMachine.ReceivedFrame) {
        slots.append(frame)
    }

    /// Takes the oldest frame out, or `nil` when none is waiting.
    mutating func popFirst() -> ClientConnectionStateMachine.ReceivedFrame? {
        guard head < slots.count else { return nil }
        let frame = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= Self.compactionThreshold && head * 2 >= slots.count {
            // A reader that never takes every frame must not keep the taken slots forever.
            slots.removeFirst(head)
            head = 0
        }
        return frame
    }

    /// Taken slots dropped at most once per this many frames taken (and only when they are at
    /// least half of the array), so that dropping them costs a move per frame at most.
    static let compactionThreshold = 64
}
