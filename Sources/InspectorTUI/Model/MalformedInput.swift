import BridgeCore
import Foundation

/// What can still be read from input the host could not decode as a message.
enum MalformedInput {
    /// Larger input is not parsed again for its id on every frame drawn.
    static let maxParsedBytes = 8 * 1024

    /// The `correlationId` that malformed input names, when it is a JSON object (of at most
    /// ``maxParsedBytes``) with a non-empty string `correlationId`; otherwise `nil`. The id is
    /// untrusted text: the caller draws it through the buffer, which makes it safe.
    static func correlationId(in raw: Data) -> String? {
        // Read by the one JSON rule the host reads messages by (JSONParser), not another parser.
        guard !raw.isEmpty, raw.count <= maxParsedBytes,
              case .object(let fields)? = JSONParser.parse(raw),
              case .string(let id)? = fields["correlationId"], !id.isEmpty
        else { return nil }
        return id
    }
}
