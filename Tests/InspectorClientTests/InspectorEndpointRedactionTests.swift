import InspectorClient
import Testing

/// `--connect` values are printed without their token (issue 24, point 2; docs/cli.md: "the
/// token is never printed").
@Suite("InspectorEndpoint redaction")
struct InspectorEndpointRedactionTests {
    @Test("a --connect value that cannot be read is named in the error without its token, however the token was written")
    func badAddressHidesToken() {
        for connect in [
            "tcp://127.0.0.1:91x23?token=s3cret", "127.0.0.1:9123?token=s3cret", "tcp://127.0.0.1:9123/?toekn=s3cret&x=1",
            "tcp://h:1/token=s3cret", "tcp://bad host:1?TOKEN=s3cret",
        ] {
            let error = InspectorEndpointError.badAddress(connect)
            #expect(!error.description.contains("s3cret"), "\(error)")
            #expect(error.description.contains("cannot read --connect"), "\(error)")
        }
        #expect(InspectorEndpoint.redacted("tcp://127.0.0.1:91x23?token=s3cret") == "tcp://127.0.0.1:91x23?…")
        #expect(InspectorEndpoint.redacted("127.0.0.1:9123") == "127.0.0.1:9123")
    }

    @Test("every refusal of a --connect with a token in it leaves the token out")
    func parseErrorsHideToken() {
        for connect in ["tcp://127.0.0.1:99999?token=s3cret", "tcp://[::1]:x?token=s3cret", "tcp://:1?token=s3cret", "tcp://h!:1?token=s3cret"] {
            do {
                _ = try InspectorEndpoint.parse(connect: connect, token: nil, environment: [:])
                Issue.record("\(connect) was accepted")
            } catch {
                #expect(!"\(error)".contains("s3cret"), "\(error)")
            }
        }
    }
}
