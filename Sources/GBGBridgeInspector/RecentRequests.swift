import BridgeCore

/// The fate of requests the adapter saw recently, so that an inspector answering one that is not
/// pending is told why, as BridgeCore's host tells it: already answered, or held by a handler or
/// slot. GBGBridge's public API only shows what is pending now; the rest is what the adapter saw
/// (the delegate's `didReceive`, `pendingRequests` over time, and the page script's reports of
/// responses).
///
/// Bounded: the oldest ids are forgotten first, and a forgotten id is reported as never seen
/// (`not_pending`), which is still true of it.
struct RecentRequests {
    /// What became of a request.
    enum Fate: Equatable {
        /// Received; no response seen yet.
        case received
        /// It was in `pendingRequests` and left without a response the page reported (the app
        /// answered it with no page attached, say).
        case leftPending
        /// A response to it was seen going to the journey.
        case answered
    }

    private(set) var fates: BoundedMap<Fate>
    /// The action of each request received: a response that names none is threaded to it
    /// without reading GBGBridge's whole `receivedMessages`.
    private var actions: BoundedMap<String>

    init(limit: Int = 10_000) {
        fates = BoundedMap(capacity: limit)
        actions = BoundedMap(capacity: limit)
    }

    /// The journey sent request `id` for `action`.
    mutating func received(_ id: String, action: String) {
        fates[id] = .received
        actions[id] = action
    }

    /// The action of request `id`, if it is still remembered.
    func action(of id: String) -> String? { actions[id] }

    /// `id` left `pendingRequests`; a response already seen stays the fate.
    mutating func leftPending(_ id: String) {
        if fates[id] != .answered { fates[id] = .leftPending }
    }

    /// A response to `id` went to the journey.
    mutating func answered(_ id: String) {
        fates[id] = .answered
    }

    /// What became of `id`, if it is still remembered.
    func fate(of id: String) -> Fate? { fates[id] }
}
