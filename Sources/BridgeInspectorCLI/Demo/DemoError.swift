/// A demo that could not run, with the reason.
struct DemoFailure: Error {
    var message: String
}
