import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns termination signals into calls, instead of letting them kill the process: the
/// signals' default action is switched off and a dispatch source reports each one.
///
/// Keep the watcher while it should watch; ``cancel()`` restores the default actions.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]

    /// Starts watching `signals` (SIGINT and SIGTERM by default) and calls `handler` with each
    /// one that arrives, on a private queue.
    ///
    /// Returns once every source is registered with the system (bounded by one second), so a
    /// signal sent after this returns is never lost: a source is armed asynchronously, and
    /// until it is, an ignored signal would simply vanish.
    init(signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let queue = DispatchQueue(label: "bridge-inspector.signals")
        let registered = DispatchGroup()
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        _ = registered.wait(timeout: .now() + 1)
    }

    /// Stops watching and restores the signals' default actions.
    func cancel() {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }

    /// `SIGINT`, `SIGTERM` or `signal N`.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(number)"
        }
    }
}
