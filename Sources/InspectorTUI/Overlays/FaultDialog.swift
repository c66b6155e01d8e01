import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The form for a new fault rule (`R`, Tab to the fault rules, then `n`): what
/// `bridge-inspector fault FILTER --error BUSY --times 2` makes from a shell.
///
/// Three fields, each typed as the CLI takes it (``FaultRuleSyntax``) and checked as it is typed:
/// the **filter** (the log's filter language, as a breakpoint takes it); the **effect**
/// (`error:BUSY`, `delay:2s`, `delay:1s..3s`, `never-answer`, `drop`, `duplicate`, `reorder`), or
/// several comma-separated steps, which make a sequence (`error:BUSY,error:BUSY,pass`); and the
/// **firing** (empty or `always`, a count such as `2`, or a probability such as `p=0.3 seed=7`;
/// a sequence takes none). Enter sends `addFault` and the form stays open for the host's answer:
/// a refusal (a filter term that cannot apply before a message is handled, too many rules) shows
/// here with what was typed kept. Esc cancels. Tab moves between fields.
public struct FaultDialog: AwaitingDialog {
    var filter = TextInput()
    var effect = TextInput()
    var firing = TextInput()
    var field = Field.filter
    /// The label of the command sent and not yet answered.
    var awaiting: String?
    /// The host's refusal of the last try.
    var sendError: String?

    /// The form's fields, in Tab order.
    enum Field: Int, CaseIterable { case filter, effect, firing }

    /// The rule the form describes, or the first thing wrong with it, in a sentence that says
    /// what to type.
    var rule: Result<WireFaultRule, DataFieldError> {
        let source = filter.text.trimmingCharacters(in: .whitespaces)
        if source.isEmpty { return .failure(DataFieldError(message: "filter: type which messages, as f takes it: action:camera.* dir:in …")) }
        do {
            _ = try LogFilter.parse(source)
        } catch {
            return .failure(DataFieldError(message: "filter: \(error.description)"))
        }
        let steps: [FaultStep]
        switch Self.parseEffect(effect.text) {
        case .failure(let error): return .failure(error)
        case .success(let value): steps = value
        }
        let parsedFiring: FaultFiring
        switch Self.parseFiring(firing.text) {
        case .failure(let error): return .failure(error)
        case .success(let value): parsedFiring = value
        }
        let rule: WireFaultRule
        if steps.count == 1, case .fault(let single) = steps[0] {
            rule = WireFaultRule(filter: source, effect: single, firing: parsedFiring == .always ? nil : parsedFiring)
        } else {
            guard parsedFiring == .always else {
                return .failure(DataFieldError(message: "firing: a sequence fires step by step; leave firing empty (or make the effect one fault)"))
            }
            rule = WireFaultRule(filter: source, effect: nil, firing: .sequence(steps))
        }
        if let problem = rule.problem { return .failure(DataFieldError(message: problem)) }
        return .success(rule)
    }

    /// Reads the effect field: one fault, or comma-separated steps (a sequence), as
    /// ``FaultRuleSyntax/steps(_:)`` reads `--sequence`.
    static func parseEffect(_ text: String) -> Result<[FaultStep], DataFieldError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            return .failure(DataFieldError(
                message: "effect: type what the rule does: error:BUSY, delay:2s, delay:1s..3s, never-answer, drop, duplicate, reorder; or steps error:BUSY,error:BUSY,pass"))
        }
        do throws(FaultRuleSyntaxError) {
            let steps = try FaultRuleSyntax.steps(trimmed)
            if steps.count == 1, steps[0] == .pass {
                return .failure(DataFieldError(message: "effect: pass alone changes nothing; give a fault (error:BUSY), or steps such as error:BUSY,pass"))
            }
            return .success(steps)
        } catch {
            return .failure(DataFieldError(message: "effect: \(error.description)"))
        }
    }

    /// Reads the firing field: empty or `always`; `once`, `2`, `2 times`; or a probability
    /// (`p=0.3`, `0.3`, `30%`) with an optional seed (`seed=7`, `seed 7`; default 0, as the CLI's).
    static func parseFiring(_ text: String) -> Result<FaultFiring, DataFieldError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let usage = "firing: empty or always; a count (2, 2 times, once); or a probability with a seed (p=0.3 seed=7, 30%)"
        if trimmed.isEmpty || trimmed == "always" { return .success(.always) }
        if trimmed == "once" { return .success(.times(1)) }
        var words = trimmed.replacingOccurrences(of: "=", with: " ").split(separator: " ").map(String.init)
        if words.count == 2, words[1] == "times" || words[1] == "time" || words[1] == "x" { words.removeLast() }
        if words.count == 1, let count = Int(words[0]) {
            guard count >= 1 else { return .failure(DataFieldError(message: "firing: the count must be 1 or more (got \(count))")) }
            return .success(.times(count))
        }
        if words.first == "p" { words.removeFirst() }
        guard let first = words.first else { return .failure(DataFieldError(message: usage)) }
        let p: Double?
        if first.hasSuffix("%") { p = Double(first.dropLast()).map { $0 / 100 } } else { p = Double(first) }
        guard let p, p.isFinite, p >= 0, p <= 1 else {
            return .failure(DataFieldError(message: "\(usage) (a probability is 0 to 1, or 0% to 100%)"))
        }
        let rest = Array(words.dropFirst())
        if rest.isEmpty { return .success(.probability(p, seed: 0)) }
        guard rest.count == 2, rest[0] == "seed", let seed = UInt64(rest[1]) else {
            return .failure(DataFieldError(message: "firing: after the probability only seed=N (a whole number from 0), as in p=0.3 seed=7"))
        }
        return .success(.probability(p, seed: seed))
    }

    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "add"), ("Esc", "cancel"), ("Tab", "field")] + PrefilledText.editingKeys
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            field = Field(rawValue: (field.rawValue + 1) % Field.allCases.count) ?? .filter
        case .backTab:
            field = Field(rawValue: (field.rawValue + Field.allCases.count - 1) % Field.allCases.count) ?? .filter
        case .enter:
            switch rule {
            case .failure(let error): return .flash(error.message, isError: true)
            case .success(let rule):
                sendError = nil
                let label = "add fault \(rule.filter): \(rule.summary)"
                awaiting = label
                return .sendAndStay(.addFault(rule), label: label)
            }
        default:
            switch field {
            case .filter: _ = filter.handle(key)
            case .effect: _ = effect.handle(key)
            case .firing: _ = firing.handle(key)
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let inner = DialogFrame.centered(&buffer, area: area, width: 100, height: 15, title: "New fault rule")
        var y = inner.y
        y = FormDrawing.note(
            "Make the host's real handling of matching messages go wrong on purpose; the rule is yours and goes when you quit.",
            style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.textField("filter", filter, focused: field == .filter, placeholder: "action:camera.document.capture", into: &buffer, at: y, in: inner)
        y = FormDrawing.textField(
            "effect", effect, focused: field == .effect, placeholder: "error:BUSY  delay:2s  never-answer  drop  duplicate  reorder  (or error:BUSY,pass)",
            into: &buffer, at: y, in: inner)
        y = FormDrawing.textField("firing", firing, focused: field == .firing, placeholder: "always  (or 2 times, p=0.3 seed=7)", into: &buffer, at: y, in: inner)
        y = FormDrawing.note(
            "on requests: error, delay, never-answer, drop; on what the host sends: drop, duplicate, delay, reorder",
            style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        let problem: String?
        switch rule {
        case .failure(let error): problem = sendError ?? error.message
        case .success: problem = sendError
        }
        if let problem {
            for line in TextWrap.wrap("✗ " + Sanitizer.sanitize(problem), width: max(1, inner.width)) {
                y = FormDrawing.note(line, style: Theme.danger, into: &buffer, at: y, in: inner)
            }
        } else if case .success(let rule) = rule {
            FormDrawing.note("✓ ready: Enter adds it: \(rule.summary)", style: Theme.success, into: &buffer, at: y, in: inner)
        }
    }
}
