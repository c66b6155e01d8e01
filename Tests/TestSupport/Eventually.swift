/// Polls `condition` on the main actor until it holds or `timeout` passes, and returns whether
/// it held. Use it as `#expect(await eventually { host.pendingRequests.count == 1 })`.
///
/// It yields first (most conditions hold after a hop or two) and then sleeps a millisecond
/// between checks. The bound is generous on purpose: tests run side by side on a busy two-core
/// machine, where the main actor can be taken for seconds by other tests, and a condition that
/// holds ends the wait at once. Never use it to show that something does *not* happen: that
/// would always take the whole bound.
@MainActor
public func eventually(timeout: Duration = .seconds(300), _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var iteration = 0
    while ContinuousClock.now < deadline {
        if condition() { return true }
        iteration += 1
        if iteration < 100 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return condition()
}
