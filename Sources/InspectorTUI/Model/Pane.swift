/// The panes of the main screen that can take focus (Tab moves between them).
public enum Pane: Int, Sendable, CaseIterable {
    /// The message log.
    case messages
    /// Pending requests.
    case pending
    /// Capture slots.
    case slots

    /// The pane after this one.
    var next: Pane { Pane(rawValue: (rawValue + 1) % Pane.allCases.count) ?? .messages }
    /// The pane before this one.
    var previous: Pane { Pane(rawValue: (rawValue + Pane.allCases.count - 1) % Pane.allCases.count) ?? .messages }
}
