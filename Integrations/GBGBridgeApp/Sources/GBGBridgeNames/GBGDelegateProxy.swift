import Foundation
import GBGBridge

/// The inspector's object in GBG's `delegate` slot: hands each call to the inspector, then
/// forwards it, unchanged and in the same order, to the app's delegate (held weakly, as GBGBridge
/// holds its delegate).
///
/// GBG's docs do not say whether `BridgeHostDelegate` is @MainActor. The class has no isolation
/// of its own and conforms in an extension, so its methods take whatever isolation the protocol
/// has, and the calls to the app's delegate type-check either way. The inspector's closures are
/// @MainActor: GBGBridge's host, a @MainActor class, calls its delegate on the main actor, which
/// `MainActor.assumeIsolated` checks. Requirements the docs do not show (if GBGBridge has more)
/// keep their default implementations and are not forwarded.
final class GBGDelegateProxy: NSObject {
    /// The app's delegate, which every call is forwarded to.
    weak var app: (any BridgeHostDelegate)?
    private let onReceive: @MainActor @Sendable (Data) -> Void
    private let onUnhandled: @MainActor @Sendable (Data) -> Void

    init(onReceive: @escaping @MainActor @Sendable (Data) -> Void, onUnhandled: @escaping @MainActor @Sendable (Data) -> Void) {
        self.onReceive = onReceive
        self.onUnhandled = onUnhandled
    }
}

extension GBGDelegateProxy: BridgeHostDelegate {
    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        let json = GBGMessageJSON.encode(message)
        let report = onReceive
        MainActor.assumeIsolated { report(json) }
        app?.bridgeHost(host, didReceive: message)
    }

    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
        let json = GBGMessageJSON.encode(message)
        let report = onUnhandled
        MainActor.assumeIsolated { report(json) }
        app?.bridgeHost(host, unhandledRequest: message)
    }
}
