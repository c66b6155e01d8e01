import BridgeCore
import Foundation

/// Parses the data field of a response or event: empty means no data; otherwise a JSON object.
enum DataField {
    /// The data, or a sentence saying where the JSON goes wrong.
    static func parse(_ text: String) -> Result<[String: JSONValue]?, DataFieldError> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .success(nil) }
        // Checked as typed (JSON allows the spaces around a value), so the column counts from the
        // first character the person typed, leading spaces included.
        let bytes = Array(text.utf8)
        let value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(bytes)
        } catch {
            return .failure(DataFieldError(message: "JSON " + error.describe(in: bytes)))
        }
        guard case .object(let object) = value else {
            return .failure(DataFieldError(message: "data must be a JSON object, like {\"key\": \"value\"}"))
        }
        return .success(object)
    }
}

/// Why a data field is not usable.
struct DataFieldError: Error, Equatable {
    var message: String
}
