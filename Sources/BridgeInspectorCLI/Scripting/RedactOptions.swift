import ArgumentParser
import InspectorClient

/// What `redact` and `export --har` redact beyond images: `--field PATH` (repeatable) and
/// `--min-base64 N`, read into ``Redactor/Options``.
struct RedactOptions: ParsableArguments {
    @Option(name: .customLong("field"), help: ArgumentHelp(
        "A field to replace in every bridge message, such as data.documentNumber (relative to the message or its payload; * for any key; repeatable).",
        valueName: "path"))
    var fields: [String] = []

    @Option(name: .customLong("min-base64"), help: ArgumentHelp(
        "The shortest run of base64 characters replaced (data: URLs are replaced whatever their length).",
        valueName: "n"))
    var minBase64 = Redactor.Options.defaultMinBase64Length

    /// The options, or a usage error naming the path that cannot be read.
    func options() throws -> Redactor.Options {
        var paths: [RedactionFieldPath] = []
        for field in fields {
            do {
                paths.append(try RedactionFieldPath(parsing: field))
            } catch {
                throw ScriptError.usage("cannot read --field \(field.debugDescription): \(error.reason)")
            }
        }
        guard minBase64 >= 16 else {
            throw ScriptError.usage("--min-base64 must be at least 16 (shorter runs are ordinary words and ids)")
        }
        return Redactor.Options(minBase64Length: minBase64, fields: paths)
    }
}
