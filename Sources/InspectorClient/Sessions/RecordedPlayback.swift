import BridgeCore

/// A live journey played against a ``RecordedAnswerBook``: which recorded answer each live
/// request gets, and which recorded host events are due as the journey's messages arrive. A pure
/// value (no host, no clock): `bridge-inspector host --recording FILE` keeps one and does what
/// it says.
///
/// **The matching rule.** A live request gets, in this order:
/// 1. the first recorded exchange not used yet with the same action and equal data (JSON
///    equality: key order and number spelling do not matter; absent data equals `{}`);
/// 2. else the first unused one with the same action whose data differs only in the fields a
///    person named (``ignoredPaths``, `--match-ignore PATH`);
/// 3. else, when every exchange that matches by 1 or 2 is used already (a journey that retries,
///    or asks again), the last of them again, so a retry sees what the app answered last;
/// 4. else nothing: the request is not answered from the recording and waits in
///    `pendingRequests` for a person or a reply rule (``Decision/unanswered(_:)`` says why).
///
/// Only `payload.action` and `payload.data` are compared: the envelope (correlation id,
/// timestamp, version) differs on every run. No data field is ignored unless named: a field
/// ignored by guess (anything called `timestamp`, say) could answer a different question with
/// the recorded answer without anyone noticing, while a request left pending is seen at once,
/// with the fields that differed. Ties go to recorded order, and a match by 1 always wins over
/// one by 2, even one recorded earlier. An exchange the recording never saw answered matches
/// like any other, and its live request is left pending too: the recording holds no answer.
///
/// **Events.** Each page that attaches starts the recording again (``pageAttached()``): the
/// exchanges are all unused again and the journey's messages are counted from its first, since
/// a web developer reloads the page to run the journey again. The attach gets the first recorded
/// `host.ready` (its `timestamp` made now by the host) and the events recorded before the
/// journey's first message; each later event is due once the page has sent as many messages as
/// the journey had when the host sent it (``journeyMessageArrived()``).
public struct RecordedPlayback: Sendable {
    /// What a live request gets.
    public enum Decision: Sendable, Hashable {
        /// The recorded answer of this exchange: by equal data (`loosely` false), by data equal
        /// but for ``RecordedPlayback/ignoredPaths`` (`loosely` true); `again` when the exchange
        /// had been used already (a retry).
        case answer(RecordedAnswerBook.Exchange, RecordedAnswerBook.Answer, loosely: Bool, again: Bool)
        /// Not answered from the recording: a sentence saying why, for the person running the
        /// host (untrusted text inside: make it safe before printing).
        case unanswered(String)
    }

    /// The book played.
    public let book: RecordedAnswerBook
    /// The data fields a live request may differ in from the recorded one (`--match-ignore`).
    public let ignoredPaths: [RecordedDataPath]
    /// The exchanges used since the page attached, by index.
    public private(set) var used: Set<Int> = []
    /// The journey's messages received since the page attached.
    public private(set) var journeyMessages = 0
    /// How many pages have attached.
    public private(set) var attaches = 0

    /// Starts a playback: nothing used, no message seen.
    public init(book: RecordedAnswerBook, ignoredPaths: [RecordedDataPath] = []) {
        self.book = book
        self.ignoredPaths = ignoredPaths
    }

    /// A page attached: the recording starts again. Returns the `host.ready` event to send
    /// (`nil` when the recording has none: the host then sends its own) and the events recorded
    /// before the journey's first message.
    public mutating func pageAttached() -> (ready: RecordedAnswerBook.HostEvent?, events: [RecordedAnswerBook.HostEvent]) {
        attaches += 1
        used = []
        journeyMessages = 0
        return (book.readyEvents.first, book.events(afterJourneyMessage: 0))
    }

    /// The journey sent a message (a request or an event the host read): the events due now.
    public mutating func journeyMessageArrived() -> [RecordedAnswerBook.HostEvent] {
        journeyMessages += 1
        return book.events(afterJourneyMessage: journeyMessages)
    }

    /// The answer for a live request with `action` and `data`, by the matching rule above; the
    /// exchange it takes is used from now on.
    public mutating func answer(action: String, data: [String: JSONValue]?) -> Decision {
        let live = data ?? [:]
        let sameAction = book.exchanges.filter { $0.action == action }
        let exact = sameAction.filter { ($0.data ?? [:]) == live }
        let loose = ignoredPaths.isEmpty ? [] : sameAction.filter { stripped($0.data ?? [:]) == stripped(live) && !exact.contains($0) }
        let choice: (exchange: RecordedAnswerBook.Exchange, loosely: Bool, again: Bool)
        if let first = exact.first(where: { !used.contains($0.index) }) {
            choice = (first, false, false)
        } else if let first = loose.first(where: { !used.contains($0.index) }) {
            choice = (first, true, false)
        } else if let last = exact.last ?? loose.last {
            choice = (last, exact.isEmpty, true)
        } else {
            return .unanswered(reasonUnmatched(action: action, data: live, sameAction: sameAction))
        }
        used.insert(choice.exchange.index)
        guard let answer = choice.exchange.answer else {
            return .unanswered(
                "the recording holds this '\(action)' request (recorded as \(choice.exchange.recordedId)) but no answer to it: the recorded host never answered it either")
        }
        return .answer(choice.exchange, answer, loosely: choice.loosely, again: choice.again)
    }

    private func stripped(_ data: [String: JSONValue]) -> [String: JSONValue] {
        ignoredPaths.reduce(data) { $1.removing(from: $0) }
    }

    private func reasonUnmatched(action: String, data: [String: JSONValue], sameAction: [RecordedAnswerBook.Exchange]) -> String {
        guard let nearest = sameAction.first else {
            return "the recording holds no '\(action)' request"
        }
        let differences = RecordedDataPath.differences(stripped(nearest.data ?? [:]), stripped(data))
        let named = differences.map { "--match-ignore \($0)" }.joined(separator: " ")
        return "the recording's '\(action)' requests asked with other data (the first, recorded as \(nearest.recordedId), differs at \(differences.joined(separator: ", "))); to answer it anyway, run the host with \(named)"
    }
}
