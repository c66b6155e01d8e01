import BridgeCore
import InspectorProtocol

/// One step of the app's lifecycle that a person makes happen to the journey (issue 29): a
/// documented host event with its documented data, or a step done to the journey's web view.
/// What `bridge-inspector lifecycle` and the inspector's `L` menu send, one step at a time.
///
/// The events are GBG's documented host events (``BridgeCore/DocumentedEvent``) and go through
/// the ordinary `sendEvent` command; `ready` is sent without data, so the host sends its own
/// `host.ready` with its `timestamp` and `version`, as it does when a journey attaches. The web
/// view's steps go through the `journey` command (``InspectorProtocol/JourneyStep``).
public enum LifecycleStep: Sendable, Hashable {
    /// `host.background`: the app went to the background.
    case background
    /// `host.foreground`: the app came back.
    case foreground
    /// `host.orientation {orientation}`: the device turned (see ``orientations``).
    case orientation(String)
    /// `host.ready` again, as the host sends it (a repeated or late ready).
    case ready
    /// Detach, re-attach or reload the journey's web view.
    case journey(JourneyStep)

    /// The orientation values offered. GBG's pages name `host.orientation` and its
    /// `orientation` member but list no values; these two are this project's choice.
    public static let orientations = ["portrait", "landscape"]

    /// Every step's name as typed (`orientation` takes a value).
    public static let names = ["background", "foreground", "orientation", "ready"] + JourneyStep.allCases.map(\.rawValue)

    /// The step called `name`, with `value` for `orientation`; or a sentence saying what is wrong.
    public static func parse(_ name: String, value: String?) -> Result<LifecycleStep, LifecycleStepError> {
        let step: LifecycleStep
        switch name {
        case "background": step = .background
        case "foreground": step = .foreground
        case "ready": step = .ready
        case "orientation":
            guard let value else {
                return .failure(LifecycleStepError("orientation needs a value: \(orientations.joined(separator: " or "))"))
            }
            guard orientations.contains(value) else {
                return .failure(
                    LifecycleStepError(
                        "unknown orientation: \(value); use \(orientations.joined(separator: " or ")) (GBG's pages list no values; to send any other, use `event host.orientation --data`)"
                    ))
            }
            return .success(.orientation(value))
        default:
            guard let journeyStep = JourneyStep(rawValue: name) else {
                return .failure(LifecycleStepError("unknown lifecycle step: \(name); the steps are \(names.joined(separator: ", "))"))
            }
            step = .journey(journeyStep)
        }
        if let value { return .failure(LifecycleStepError("\(name) takes no value (got \(value))")) }
        return .success(step)
    }

    /// The documented event this step sends, or `nil` for a step done to the web view.
    public var event: DocumentedEvent? {
        switch self {
        case .background: return DocumentedEvent.named("host.background")
        case .foreground: return DocumentedEvent.named("host.foreground")
        case .orientation: return DocumentedEvent.named("host.orientation")
        case .ready: return DocumentedEvent.named("host.ready")
        case .journey: return nil
        }
    }

    /// The command that does the step.
    public var command: InspectorCommand {
        switch self {
        case .journey(let step):
            return .journey(InspectorCommand.Journey(step: step))
        case .orientation(let value):
            // The documented data member, read from the documented list.
            let field = event?.dataFields.first ?? "orientation"
            return .sendEvent(InspectorCommand.SendEvent(name: "host.orientation", data: [field: .string(value)]))
        case .background, .foreground, .ready:
            // Bare: a documented event without data, and host.ready as the host makes it.
            return .sendEvent(InspectorCommand.SendEvent(name: event?.name ?? "", data: nil))
        }
    }

    /// What the step is, for a person: `host.orientation {"orientation":"landscape"}`, `detach the web view`.
    public var label: String {
        switch self {
        case .orientation(let value): return "host.orientation (orientation: \(value))"
        case .ready: return "host.ready (the host's timestamp and version)"
        case .background, .foreground: return event?.name ?? ""
        case .journey(let step): return step.summary
        }
    }
}

/// A lifecycle step that is not one (an unknown name, a missing or unknown orientation).
public struct LifecycleStepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a person.
    public var description: String

    init(_ description: String) { self.description = description }
}
