import BridgeCore
import InspectorClient
import InspectorProtocol
import TerminalUI

extension InspectorSession {
    /// Refuses (exit 2, as the agent's own `unsupported` refusal) before anything is sent when the
    /// host says in its hello that it cannot do `feature`: an app seen through GBGBridge's public
    /// API cannot hold messages or take injected ones. `doing` completes "this host cannot …".
    func require(_ feature: HostFeature, doing: String) throws {
        guard let reason = hello.host.unsupportedReason(feature) else { return }
        throw ScriptError(
            exitCode: ExitCodes.refused,
            message: "the host refused: this host cannot \(doing): \(Sanitizer.sanitize(reason)) (unsupported)",
            hint: "`bridge-inspector snapshot` lists what this host does not support; a host built on this project's BridgeCore supports it")
    }
}
