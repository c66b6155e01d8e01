import FilterLanguage
import Testing

@Suite("FilterSyntax")
struct FilterSyntaxTests {
    @Test("A blank text is no expression; terms combine as written")
    func parse() throws {
        #expect(try FilterSyntax.parse("") == nil)
        #expect(try FilterSyntax.parse("  \t ") == nil)
        #expect(
            try FilterSyntax.parse("type:request !action:capability.* | is:error")
                == .or([.and([.term(.type(.request)), .not(.term(.action(pattern: "capability.*")))]), .term(.error)]))
        #expect(try FilterSyntax.parse("CODE:busy ID:Doc \"A B\"") == .and([.term(.code("BUSY")), .term(.id("doc")), .term(.text("a b"))]))
    }

    @Test("uses finds a predicate anywhere in the expression")
    func uses() throws {
        #expect(try FilterSyntax.parse("type:event | (!dir:out is:pending)")?.uses(.pending) == true)
        #expect(try FilterSyntax.parse("type:event | dir:out")?.uses(.pending) == false)
    }

    @Test("A mistake names the term and its column")
    func mistake() {
        #expect(throws: FilterParseError(term: "type:bogus", reason: "type is request, response or event", column: 4)) {
            try FilterSyntax.parse("a  type:bogus")
        }
    }
}
