import TerminalUI

/// One key binding of the main screen: its keys, what the help says of them and where, whether
/// it sends something to the host (a recording refuses it), its footer hint, and what it does.
///
/// The bindings are one table, ``InspectorModel/keyTable``; the key handler, the help
/// (``HelpView``), the footer's hints and a recording's refusals are all read from it, as Bubble
/// Tea's `key.Binding` feeds both its update and its `help.Model`. Each binding has a stable
/// ``name``, so a command prompt can look one up (``InspectorModel/binding(named:)``).
struct KeyBinding: Sendable {
    /// What a binding does on the main screen, given the key pressed; returns the effects.
    typealias Action = @Sendable (inout InspectorModel, Key) -> [InspectorEffect]

    /// How the help lists a binding.
    enum Help: Sendable {
        /// A line of its own: the keys as the help names them, and what they do.
        case line(keys: String, text: String)
        /// Said on the line of the binding before it (`j k  ↓ ↑`: down, then up).
        case withPrevious
    }

    /// What acts on the keys.
    enum Handler: Sendable {
        /// The main screen, with this action.
        case main(Action)
        /// A view, named for a person ("in R"): the keys work there, and are listed here so
        /// the help names them where a person looks for them.
        case view(String)
        /// No key of its own: what a mark on the screen means, listed beside the keys it is about.
        case note
    }

    /// A hint in the footer of the main screen.
    struct Hint: Sendable {
        /// Where it goes: the footer lists its hints by this order, lowest first.
        var order: Int
        /// The key as the footer names it.
        var key: String
        /// Its label in this state of the model, or `nil` while the hint is not offered.
        var label: @Sendable (InspectorModel) -> String?
    }

    /// The stable name: the `:` command that runs it (``CommandPrompt``, ``KeyBrowser``).
    let name: String
    /// The keys (none for a ``Handler/note``).
    let keys: [Key]
    /// The section of the help that lists it.
    let section: HelpSection
    /// How the help lists it.
    let help: Help
    /// Whether it sends something to the host: a recording refuses it at once rather than
    /// opening a dialog whose answer could never be sent.
    let sends: Bool
    /// Whether it works over every view and prompt, before they see the key (Ctrl-C).
    let everywhere: Bool
    /// Its hint in the footer, if it has one.
    let hint: Hint?
    /// What acts on its keys.
    let handler: Handler

    /// Whether a recording (read-only) lets it act: everything that does not send.
    var allowedReadOnly: Bool { !sends }

    /// A binding of the main screen.
    init(
        _ name: String, _ keys: [Key], _ section: HelpSection, _ help: Help, sends: Bool = false, everywhere: Bool = false,
        hint: Hint? = nil, action: @escaping Action
    ) {
        self.init(name: name, keys: keys, section: section, help: help, sends: sends, everywhere: everywhere, hint: hint, handler: .main(action))
    }

    /// A binding listed in the help whose keys a view handles, or a note; `sends` when what
    /// the view does with them sends something (a recording's help leaves it out).
    init(_ name: String, _ keys: [Key], _ section: HelpSection, _ help: Help, sends: Bool = false, handler: Handler) {
        self.init(name: name, keys: keys, section: section, help: help, sends: sends, everywhere: false, hint: nil, handler: handler)
    }

    private init(name: String, keys: [Key], section: HelpSection, help: Help, sends: Bool, everywhere: Bool, hint: Hint?, handler: Handler) {
        self.name = name
        self.keys = keys
        self.section = section
        self.help = help
        self.sends = sends
        self.everywhere = everywhere
        self.hint = hint
        self.handler = handler
    }
}

/// The sections of the help that list key bindings, in the help's order; the raw value is
/// the title.
enum HelpSection: String, CaseIterable, Sendable {
    case everywhere = "Everywhere"
    case moving = "Moving"
    case messages = "Messages"
    case answering = "Answering and events"
    case interception = "Breakpoints, held messages, inject and replay"
    case slots = "Capture slots (Slots pane, or the only busy slot)"
    case detail = "Message detail (Enter)"
    case lastError = "lastError"
}
