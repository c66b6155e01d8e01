/// The `Content-Type` of a served file, from its extension.
struct ContentType: Sendable, Equatable {
    /// The header value.
    var header: String
    /// Whether the file is an HTML page.
    var isHTML: Bool

    /// Types by lowercase extension; anything else is `application/octet-stream`.
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "wasm": "application/wasm",
        "webmanifest": "application/manifest+json",
    ]

    /// The type of the file at `path`.
    static func forFile(_ path: String) -> ContentType {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else {
            return ContentType(header: "application/octet-stream", isHTML: false)
        }
        let ext = name[name.index(after: dot)...].lowercased()
        return ContentType(
            header: byExtension[ext] ?? "application/octet-stream",
            isHTML: ext == "html" || ext == "htm")
    }
}
