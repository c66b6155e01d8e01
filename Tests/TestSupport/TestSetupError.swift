/// A failure inside a test helper (setting up, not the behaviour under test).
public struct TestSetupError: Error, CustomStringConvertible {
    /// What went wrong, for the test's failure message.
    public let description: String

    /// A failure described by `description`.
    public init(description: String) {
        self.description = description
    }
}
