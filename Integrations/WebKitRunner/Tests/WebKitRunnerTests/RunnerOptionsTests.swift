import Testing
import WebKitRunnerCore

@Suite struct RunnerOptionsTests {
    @Test func parses() throws {
        #expect(try RunnerOptions.parse([]).get() == .run(RunnerOptions()))
        #expect(try RunnerOptions.parse(["--headless", "--width", "800", "--height=600"]).get()
            == .run(RunnerOptions(headless: true, width: 800, height: 600)))
        #expect(try RunnerOptions.parse(["--headless", "--help"]).get() == .help)
        #expect(try RunnerOptions.parse(["-h"]).get() == .help)
    }

    @Test func rejectsWhatItDoesNotKnow() {
        #expect(RunnerOptions.parse(["--version"]) == .failure(OptionsError(#"unknown option "--version" (see --help)"#)))
        #expect(RunnerOptions.parse(["--width"]) == .failure(OptionsError("--width needs a number of pixels")))
        #expect(RunnerOptions.parse(["--height", "tall"])
            == .failure(OptionsError(#"--height needs a number of pixels from 100 to 16384, not "tall""#)))
        #expect(RunnerOptions.parse(["--headless=yes"]) == .failure(OptionsError("--headless takes no value")))
    }

    @Test func usageNamesTheHostAndTheOptions() {
        for word in ["bridge-inspector host --webkit", "--headless", "--width", "--height", "standard input"] {
            #expect(RunnerOptions.usage.contains(word), "usage lacks \(word)")
        }
    }
}
