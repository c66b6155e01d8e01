import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport

/// The reply rules in force, in order, with their hit counts: shared by `bridge-inspector
/// auto-respond` and the interactive inspector.
///
/// Pure and value-typed: the caller owns the connection and sends what ``match(_:)`` says.
///
/// ```swift
/// var book = ReplyRuleBook()
/// book.add(ReplyRule(action: "nfc.read", times: 2, response: .init(status: .success, data: ["uid": "04A2"])))
/// if let (rule, delayMs) = book.match(pending) {
///     // after delayMs: session.send(.respond(rule.command(answering: pending.correlationId)))
///     // if the host refuses (someone else answered first): book.giveBack(ruleID: rule.id)
/// }
/// ```
///
/// The first active rule (enabled, not used up) whose action matches answers a request: order
/// rules from the most specific to the most general. Used-up rules stay in the book, so their
/// hit counts can still be listed, until they are removed.
///
/// Saved as `{"rules": [...]}` (see ``ReplyRule`` for one rule); a bare array of rules is read too.
public struct ReplyRuleBook: Sendable, Hashable {
    /// The rules, in the order they are tried.
    public private(set) var rules: [ReplyRule] = []
    /// The id the next added rule gets.
    public private(set) var nextID = 1
    /// The ids of ``rules``, so adding a rule is one look-up, not a pass over the book: a book
    /// of 100,000 rules is read in linear time.
    private var ids: Set<Int> = []

    /// An empty book.
    public init() {}

    /// A book holding `rules`, in order (ids and default names are assigned as by ``add(_:)``).
    public init(rules: [ReplyRule]) {
        for rule in rules { add(rule) }
    }

    /// Whether the book holds no rule.
    public var isEmpty: Bool { rules.isEmpty }

    /// The rule with this id.
    public func rule(id: Int) -> ReplyRule? { rules.first { $0.id == id } }

    /// The first rule with this name.
    public func rule(named name: String) -> ReplyRule? { rules.first { $0.name == name } }

    /// Adds `rule` at the end and returns it as stored: it gets the next id unless it has an id
    /// no other rule has, and, when its name is empty, the name `<action>#<id>`.
    @discardableResult
    public mutating func add(_ rule: ReplyRule) -> ReplyRule {
        var rule = rule
        if rule.id <= 0 || ids.contains(rule.id) { rule.id = nextID }
        nextID = max(nextID, rule.id + 1)
        if rule.name.isEmpty { rule.name = "\(rule.action)#\(rule.id)" }
        rules.append(rule)
        ids.insert(rule.id)
        return rule
    }

    /// Removes the rule with this id; returns it (with its final hit count), or `nil` if none.
    @discardableResult
    public mutating func remove(id: Int) -> ReplyRule? {
        guard ids.contains(id), let index = rules.firstIndex(where: { $0.id == id }) else { return nil }
        ids.remove(id)
        return rules.remove(at: index)
    }

    /// Removes every rule.
    public mutating func removeAll() {
        rules.removeAll()
        ids.removeAll()
    }

    /// Enables or disables the rule with this id; `false` if there is none.
    @discardableResult
    public mutating func setEnabled(_ enabled: Bool, id: Int) -> Bool {
        guard let index = rules.firstIndex(where: { $0.id == id }) else { return false }
        rules[index].isEnabled = enabled
        return true
    }

    /// Enables or disables every rule at once (rules loaded from a file start paused).
    public mutating func setAllEnabled(_ enabled: Bool) {
        for index in rules.indices { rules[index].isEnabled = enabled }
    }

    /// Sets every rule's hit count back to 0 (a fresh start for rules read from a file).
    public mutating func resetHits() {
        for index in rules.indices { rules[index].hits = 0 }
    }

    /// The rule that answers `pending`, if any: the first active rule whose action matches. Uses
    /// it up by one (its hit count goes up) and returns it as it is after that, with its delay.
    public mutating func match(_ pending: WirePending) -> (rule: ReplyRule, delayMs: Int)? {
        guard let index = rules.firstIndex(where: { $0.isActive && $0.matches(action: pending.action) }) else { return nil }
        rules[index].hits += 1
        return (rules[index], rules[index].delayMs)
    }

    /// Undoes one hit of the rule with this id: the request it matched could not be answered (the
    /// host refused: answered by someone else first, or no longer pending), so the rule still owes it.
    public mutating func giveBack(ruleID: Int) {
        guard let index = rules.firstIndex(where: { $0.id == ruleID }), rules[index].hits > 0 else { return }
        rules[index].hits -= 1
    }

    /// Whether some enabled rule answers every request (so the rules never run out).
    public var hasUnlimitedRule: Bool { rules.contains { $0.isEnabled && $0.times == nil } }

    /// Whether every enabled rule with a count has used it up and no rule answers every request:
    /// nothing more will be answered. `false` for a book without enabled rules.
    public var isUsedUp: Bool {
        let enabled = rules.filter(\.isEnabled)
        return !enabled.isEmpty && enabled.allSatisfy(\.isUsedUp)
    }

    /// Requests answered by all rules together.
    public var totalHits: Int { rules.reduce(0) { $0 + $1.hits } }
}

extension ReplyRuleBook: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case version, rules }

    /// The version of the saved form.
    public static let formatVersion = 1

    public init(from decoder: any Decoder) throws {
        let list: [ReplyRule]
        if var array = try? decoder.unkeyedContainer() {
            var rules: [ReplyRule] = []
            while !array.isAtEnd { rules.append(try array.decode(ReplyRule.self)) }
            list = rules
        } else {
            try RuleKeys.refuseUnknown(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try RulesFile.refuseNewerVersion(in: container, forKey: .version, current: Self.formatVersion, what: "rules")
            list = try container.decode([ReplyRule].self, forKey: .rules)
        }
        self.init(rules: list)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(rules, forKey: .rules)
    }

    /// Reads the rules file at `path` (`~` expanded): the one reader of `auto-respond --rules` and
    /// the interactive inspector's `--rules`. Hit counts start at 0; a file with no rules is
    /// refused, as there is nothing to use. The error names the place (`rules[1].status`, a line
    /// and column, or none when the file itself cannot be read) and what is wrong.
    public static func read(file path: String) throws(ReplyRuleFileError) -> ReplyRuleBook {
        var book = try decode(RulesFile.contents(of: path))
        book.resetHits()
        if book.isEmpty { throw ReplyRuleFileError(place: "", reason: "holds no rules") }
        try book.refuseOversizedData()
        return book
    }

    /// The most bytes a rule's `data` may take as JSON: what `respond --data` may send
    /// (``WireProtocol/maxCommandDataBytes``), so that its answer fits in a command frame.
    public static let maxDataBytes = WireProtocol.maxCommandDataBytes

    /// Refuses a rule whose data could never be sent: the host's inspector skips a command frame
    /// over its cap, and the rule's answer would wait for a reply that never comes.
    func refuseOversizedData() throws(ReplyRuleFileError) {
        for (index, rule) in rules.enumerated() {
            guard let data = rule.response.data else { continue }
            var writer = JSONWriter()
            writer.value(.object(data))
            let size = writer.bytes.count
            guard size > Self.maxDataBytes else { continue }
            throw ReplyRuleFileError(
                place: "rules[\(index)].data",
                reason: "the data of rule '\(rule.name)' is \(size) bytes, more than the \(Self.maxDataBytes) an answer can carry "
                    + "(the host's inspector refuses larger commands); make that rule's data smaller")
        }
    }

    /// A warning when a rules file at `path` can be changed by another user (it or its folder
    /// writable by others, or the file another user's), for the commands that read one: the rules
    /// answer the host's requests, so whoever can rewrite them decides what the journey is told.
    /// `nil` when only we (or root) can change it, or when it cannot be examined.
    public static func othersCanChangeWarning(file path: String) -> String? {
        let full = (path as NSString).expandingTildeInPath
        let folder = (full as NSString).deletingLastPathComponent
        return othersCanChangeWarning(
            file: path, status: PrivateDirectory.status(of: full, followingLinks: true),
            folder: PrivateDirectory.status(of: folder.isEmpty ? "." : folder, followingLinks: true),
            userID: PrivateDirectory.currentUserID)
    }

    /// ``othersCanChangeWarning(file:)`` for a file of `status` in a folder of `folder`, read by
    /// user `userID` (so the owner check can be tested without another user).
    public static func othersCanChangeWarning(
        file path: String, status: PrivateDirectory.Status?, folder: PrivateDirectory.Status?, userID: UInt32
    ) -> String? {
        let consequence = "they can change the rules that answer your host's requests"
        if let status {
            if status.owner != userID, status.owner != 0 {
                return "the rules file \(path) belongs to uid \(status.owner), not you (uid \(userID)): \(consequence); use a copy of your own"
            }
            if status.mode & 0o022 != 0 {
                return "the rules file \(path) has mode \(PrivateDirectory.octal(status.mode & 0o777)), so other users can write to it: "
                    + "\(consequence). Run: chmod go-w \(ShellWord.quoted(path))"
            }
        }
        // A folder others can write to, without the sticky bit (as /tmp has), lets them replace the file.
        if let folder, folder.mode & 0o022 != 0, folder.mode & 0o1000 == 0 {
            let name = (path as NSString).deletingLastPathComponent
            return "the folder of the rules file \(path) has mode \(PrivateDirectory.octal(folder.mode & 0o777)), so other users can replace the file: "
                + "\(consequence). Run: chmod go-w \(ShellWord.quoted(name.isEmpty ? "." : name))"
        }
        return nil
    }

    /// Reads a rules file's contents; the error names the place (`rules[1].status`) and what is wrong.
    public static func decode(_ data: Data) throws(ReplyRuleFileError) -> ReplyRuleBook {
        try RulesFile.decode(ReplyRuleBook.self, from: data)
    }

    /// The book as a rules file: pretty-printed JSON with sorted keys.
    public func encoded() throws -> Data {
        try JSONEncoding.encode(self, pretty: true)
    }
}

/// What is wrong with a reply rules file, and where (`rules[1].status`): the rules files' one
/// error, ``RulesFileError``, by the name the reply rules' readers have always thrown.
public typealias ReplyRuleFileError = RulesFileError
