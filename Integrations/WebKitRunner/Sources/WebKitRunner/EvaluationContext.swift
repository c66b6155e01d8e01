import WebKitRunnerCore

/// What one `evaluate` or `query` is waiting for, kept while WebKit runs its scripts.
///
/// Why a boxed object: `webkit_web_view_evaluate_javascript` reports through a C callback with a
/// single `user_data` pointer, so the sequence number (or query id) and the probe's result must
/// live in an object the callback can find. How: each script handed to WebKit gets an
/// `EvaluationRequest` (the context plus which script it is) passed retained as `user_data` and
/// released in the callback. The context turns into an event once every script it started has
/// reported, in whatever order WebKit answers (it runs them in the order they were given).
final class EvaluationContext {
    enum Purpose {
        case delivery(seq: Int, hasProbe: Bool)
        case query(id: Int)
    }

    enum Role {
        case probe
        case script
    }

    /// A finished script: its result as JSON text ("undefined" for undefined), or why it failed.
    enum Outcome {
        case value(String)
        case failed(String)
    }

    let purpose: Purpose
    private var probeOutcome: Outcome?
    private var scriptOutcome: Outcome?

    init(purpose: Purpose) {
        self.purpose = purpose
    }

    /// Whether the result of this role is reported (and so must be turned into JSON text).
    func needsResult(of role: Role) -> Bool {
        switch (purpose, role) {
        case (.delivery, .script): false
        default: true
        }
    }

    /// Records one outcome; returns the event once all outcomes are in.
    func record(_ outcome: Outcome, for role: Role) -> RunnerEvent? {
        switch role {
        case .probe: probeOutcome = outcome
        case .script: scriptOutcome = outcome
        }
        switch purpose {
        case let .query(id):
            switch scriptOutcome {
            case let .value(json): return .queryResult(id: id, json: json)
            case let .failed(error): return .queryFailed(id: id, error: error)
            case nil: return nil
            }
        case let .delivery(seq, hasProbe):
            guard let scriptOutcome, !hasProbe || probeOutcome != nil else { return nil }
            var probe: String? = nil
            var probeError: String? = nil
            switch probeOutcome {
            case let .value(json): probe = json
            case let .failed(error): probeError = error
            case nil: break
            }
            switch scriptOutcome {
            case .value: return .evaluated(seq: seq, probe: probe, probeError: probeError)
            case let .failed(error): return .evaluateFailed(seq: seq, error: error, probe: probe, probeError: probeError)
            }
        }
    }

    /// The event when the view is gone before the scripts could be given to WebKit.
    func failedBeforeStart(_ error: String) -> RunnerEvent {
        switch purpose {
        case let .query(id): .queryFailed(id: id, error: error)
        case let .delivery(seq, _): .evaluateFailed(seq: seq, error: error)
        }
    }
}

/// One script handed to WebKit: the `user_data` of its completion callback.
final class EvaluationRequest {
    let context: EvaluationContext
    let role: EvaluationContext.Role
    let runner: WebViewRunner

    init(context: EvaluationContext, role: EvaluationContext.Role, runner: WebViewRunner) {
        self.context = context
        self.role = role
        self.runner = runner
    }
}
