import Foundation
import InspectorClient

/// Keeps what a person builds up in the interactive inspector between runs, in the
/// ``StateDirectory``: the reply rules (`rules.json`, the rules-file format of
/// `auto-respond --rules`, so the file can be shared), the event history (`events.json`) and the
/// responses sent by hand (``RememberedResponses``, `responses.json`).
///
/// ```swift
/// var store = InspectorStateStore(directory: StateDirectory())
/// store.load(into: &model)          // at start: notes on screen say what was loaded
/// store.saveChanges(of: model)      // after each input: writes only what changed
/// ```
///
/// A file that cannot be read is never overwritten: the note says so, and nothing of that kind is
/// saved in this run, so a person can move it away and keep what was in it.
public struct InspectorStateStore {
    /// The rules file's name.
    public static let rulesFile = "rules.json"
    /// The event history's file name.
    public static let eventsFile = "events.json"

    /// Where the files are.
    public let directory: StateDirectory
    private var savedRules: ReplyRuleBook?
    private var savedEvents: [EventDraft]?
    private var savedResponses: RememberedResponses?
    private var rulesLocked = false
    private var eventsLocked = false
    private var responsesLocked = false

    /// A store in `directory`.
    public init(directory: StateDirectory) {
        self.directory = directory
    }

    /// Loads the saved rules (paused, see ``InspectorModel/loadRules(_:from:)``) and event history into `model`.
    ///
    /// From a directory that is not to be trusted (another user's, or writable by others:
    /// ``StateDirectory/verifyTrusted()``) nothing is loaded and nothing will be saved this run;
    /// one note says why and what fixes it.
    public mutating func load(into model: inout InspectorModel) {
        do {
            try directory.verifyTrusted()
        } catch {
            (rulesLocked, eventsLocked, responsesLocked) = (true, true, true)
            savedRules = model.rules
            savedEvents = model.eventHistory
            savedResponses = model.rememberedResponses
            model.handle(.notice("saved rules, event history and responses not loaded, and nothing is saved this run: the state directory \(error)", isError: true))
            return
        }
        do {
            if let book = try directory.load(ReplyRuleBook.self, from: Self.rulesFile) {
                model.loadRules(book, from: directory.file(Self.rulesFile))
            }
        } catch {
            rulesLocked = true
            model.handle(.notice("reply rules not loaded: \(error); rules made now are not saved until it is moved away", isError: true))
        }
        savedRules = model.rules
        do {
            if let drafts = try directory.load([EventDraft].self, from: Self.eventsFile) { model.loadEventHistory(drafts) }
        } catch {
            eventsLocked = true
            model.handle(.notice("event history not loaded: \(error); events sent now are not remembered until it is moved away", isError: true))
        }
        savedEvents = model.eventHistory
        do {
            if let responses = try directory.load(RememberedResponses.self, from: RememberedResponses.fileName) { model.rememberedResponses = responses }
        } catch {
            responsesLocked = true
            model.handle(.notice("the responses you sent before were not loaded and will not be saved this run: \(error)", isError: true))
        }
        savedResponses = model.rememberedResponses
    }

    /// Adds the rules of a shared rules file (`--rules FILE`, read by ``ReplyRuleBook/read(file:)``)
    /// to `model`, paused with a note, as the saved rules are loaded: they answer nothing until
    /// resumed in the rules view. From then on they are the inspector's own rules and saved with
    /// them, so a rule already there with the same name and settings (saved from an earlier run
    /// given the same file) is not added twice. Call it after ``load(into:)``.
    public static func loadShared(_ book: ReplyRuleBook, from path: String, into model: inout InspectorModel) {
        // One set of what makes a rule the same, not a pass over the rules for each rule: 100,000
        // rules load in linear time.
        let present = Set(model.rules.rules.map(SharedRuleKey.init))
        let fresh = book.rules.filter { !present.contains(SharedRuleKey($0)) }
        guard !fresh.isEmpty else {
            model.handle(.notice("the rules in \(path) are already loaded (paused: R to see them, space to resume one)", isError: false))
            return
        }
        // The model's book gives a rule a new id where the file's clashes with one already there.
        model.loadRules(ReplyRuleBook(rules: fresh), from: path)
    }

    /// Saves the rules, the event history and the remembered responses when they changed since
    /// the last save; returns a note when a save failed (shown once per failure).
    @discardableResult
    public mutating func saveChanges(of model: InspectorModel) -> String? {
        let rules = rulesLocked ? nil : Self.save(model.rules, ifChangedFrom: &savedRules, as: Self.rulesFile, in: directory, what: "reply rules")
        let events = eventsLocked ? nil : Self.save(model.eventHistory, ifChangedFrom: &savedEvents, as: Self.eventsFile, in: directory, what: "event history")
        let responses = responsesLocked ? nil : Self.save(
            model.rememberedResponses, ifChangedFrom: &savedResponses, as: RememberedResponses.fileName, in: directory, what: "remembered responses")
        return events ?? rules ?? responses
    }

    /// Saves `value` as `file` when it differs from `saved`; returns what went wrong, if anything.
    private static func save<Value: Encodable & Equatable>(
        _ value: Value, ifChangedFrom saved: inout Value?, as file: String, in directory: StateDirectory, what: String
    ) -> String? {
        guard value != saved else { return nil }
        saved = value
        do {
            try directory.save(value, as: file)
            return nil
        } catch {
            return "\(what) not saved: \(error)"
        }
    }
}

/// What makes a shared rule the one already loaded: its name and settings (not its id, hits or
/// whether it is paused).
private struct SharedRuleKey: Hashable {
    let name: String
    let action: String
    let times: Int?
    let delayMs: Int
    let response: ReplyRule.Response

    init(_ rule: ReplyRule) {
        (name, action, times, delayMs, response) = (rule.name, rule.action, rule.times, rule.delayMs, rule.response)
    }
}
