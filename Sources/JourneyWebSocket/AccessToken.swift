import Foundation
import NIOHTTP1

/// The per-run secret that makes a page the host's journey, as Jupyter's token does.
///
/// Checking `Origin` keeps out pages of other sites, but any local program can write any `Origin`
/// header. So every request must also prove it comes from someone who saw the URL the host
/// printed: either the `token` query parameter of that URL, or the cookie a browser gets when it
/// opens the URL. The cookie is `HttpOnly` (page scripts cannot read it) and `SameSite=Strict`
/// (other sites' pages cannot make the browser send it), and it lives until the browser closes.
///
/// The token is 256 bits from the system's secure random number generator, written as
/// base64url (43 characters, nothing to escape in a URL). It is compared in constant time, and it
/// is never written to a refusal, a notice or a log: only the host's own `serving:` line has it.
struct AccessToken: Sendable {
    /// The token as it appears in URLs and the cookie.
    let value: String

    /// The name of the `token` query parameter.
    static let queryParameter = "token"

    /// A fresh random token.
    static func random() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<4 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return AccessToken(value: base64URL(bytes))
    }

    /// The cookie that carries the token for the server on `port`. Browsers send the cookies of
    /// 127.0.0.1 to every port of it, so the port is in the name: two hosts do not overwrite each
    /// other's cookie.
    static func cookieName(port: Int) -> String { "gbgbridge_\(port)" }

    /// The `Set-Cookie` value given to a browser that opened the URL with the token.
    func setCookie(port: Int) -> String {
        "\(Self.cookieName(port: port))=\(value); Path=/; HttpOnly; SameSite=Strict"
    }

    /// How a request identifies itself.
    enum Presented: Equatable {
        /// Neither the cookie nor the query parameter is there.
        case nothing
        /// A token is there but it is not this one.
        case wrong
        /// The right token, in the cookie.
        case cookie
        /// The right token, in the query (the URL the host printed, or a bootstrap script URL).
        case query
    }

    /// What `head` presents: its `token` query parameter first, else its cookie for `port`.
    func presented(in head: HTTPRequestHead, port: Int) -> Presented {
        var sawToken = false
        for candidate in Self.queryTokens(in: head.uri) {
            if matches(candidate) { return .query }
            sawToken = true
        }
        let name = Self.cookieName(port: port)
        for header in head.headers["Cookie"] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " || $0 == "\t" }
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                if matches(trimmed[trimmed.index(after: equals)...]) { return .cookie }
                sawToken = true
            }
        }
        return sawToken ? .wrong : .nothing
    }

    /// Whether `candidate` is this token; takes the same time wherever the first difference is.
    func matches(_ candidate: Substring) -> Bool {
        let expected = Array(value.utf8)
        let given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// The values of every `token` parameter in the query of `uri`.
    static func queryTokens(in uri: String) -> [Substring] {
        guard let query = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first else { return [] }
        let prefix = queryParameter + "="
        return query.prefix { $0 != "#" }.split(separator: "&").filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count) }
    }

    /// `uri` without its `token` parameters (and without a `?` left empty), for the clean address
    /// a browser is sent on to once it has the cookie.
    static func removingQueryToken(from uri: String) -> String {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return uri }
        let kept = parts[1].split(separator: "&", omittingEmptySubsequences: false).filter { !$0.hasPrefix(queryParameter + "=") }
        return kept.isEmpty ? String(parts[0]) : parts[0] + "?" + kept.joined(separator: "&")
    }

    /// `bytes` as base64url without padding (RFC 4648, section 5).
    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
