/// A demo that could not run, with the reason.
struct DemoError: Error {
    var message: String
}
