import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The status, data, error code, error message and recoverable fields of a response, with
/// their templates, key handling, drawing and validation: shared by the respond dialog and the
/// new-rule form, so both check the data JSON as it is typed and apply the scripting commands'
/// status/error agreement (`InspectorCommand.statusErrorMismatch`) in one place.
struct ResponseFields: Sendable {
    var status: BridgeResponseStatus = .success
    /// The data JSON; its `{}` is a default the first character typed replaces.
    var data = PrefilledText("{}")
    var errorCode = PrefilledText()
    var errorMessage = PrefilledText()
    var recoverable = false

    /// One of the five fields, in the order they are drawn.
    enum Field: CaseIterable {
        case status, data, errorCode, errorMessage, recoverable
    }

    /// A ready-made answer.
    struct Template: Sendable {
        var name: String
        var status: BridgeResponseStatus
        var data: String
        var error: BridgeErrorPayload?
    }

    /// The templates offered for requests with `action` (an action, or a pattern with `*`):
    /// success, a capture success for camera actions, and each documented error code with the
    /// SDK's recoverable flag.
    static func templates(for action: String) -> [Template] {
        var list = [Template(name: "success, no data", status: .success, data: "{}", error: nil)]
        if action.hasPrefix("camera.") {
            let png = SyntheticImage.png(width: 32, height: 24).base64EncodedString()
            list.append(
                Template(
                    name: "capture success (synthetic 32×24 PNG)", status: .success,
                    data: "{\"imageBase64\": \"\(png)\", \"imageWidth\": 32, \"imageHeight\": 24, \"mimeType\": \"image/png\"}",
                    error: nil))
        }
        let exact = !action.isEmpty && !action.contains("*")
        let unsupported = BridgeErrorCode.unsupported.payload(message: exact ? "Action '\(action)' is not supported" : nil)
        list.append(Template(name: "unsupported", status: .unsupported, data: "", error: unsupported))
        list.append(Template(name: "cancelled", status: .cancelled, data: "", error: BridgeErrorCode.cancelled.payload()))
        for code in BridgeErrorCode.allCases where code != .unsupported && code != .cancelled {
            list.append(Template(name: "error \(code.rawValue)", status: .error, data: "", error: code.payload()))
        }
        return list
    }

    /// Sets the data to text the person wrote (in `$EDITOR`): typing then edits it.
    mutating func setData(_ text: String) {
        data = PrefilledText(text.trimmingCharacters(in: .whitespacesAndNewlines), untouched: false)
    }

    mutating func apply(_ template: Template) {
        status = template.status
        data = PrefilledText(template.data.trimmingCharacters(in: .whitespacesAndNewlines))
        errorCode = PrefilledText(template.error?.code ?? "")
        errorMessage = PrefilledText(template.error?.message ?? "")
        recoverable = template.error?.recoverable ?? false
    }

    /// The error object from the fields, or `nil` when the code is empty.
    var errorPayload: BridgeErrorPayload? {
        let code = errorCode.text.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { return nil }
        return BridgeErrorPayload(code: code, message: errorMessage.text, recoverable: recoverable)
    }

    /// The response the fields describe, or why they do not yet describe one: the data must be
    /// empty or a JSON object, and status and error must agree as the scripting commands require.
    var response: Result<ReplyRule.Response, DataFieldError> {
        switch DataField.parse(data.text) {
        case .failure(let error):
            return .failure(error)
        case .success(let object):
            let error = errorPayload
            // The same rule as `respond` and `auto-respond`, in the dialog's own words.
            switch InspectorCommand.statusErrorMismatch(status: status, error: error) {
            case .errorWithoutCode?:
                return .failure(DataFieldError(message: "an error response needs an error code (Ctrl-T for the documented codes)"))
            case .successWithError?:
                return .failure(
                    DataFieldError(message: "a \(status.rawValue) response carries no error: clear the error code, or choose status error"))
            case nil:
                break
            }
            return .success(ReplyRule.Response(status: status, data: object, error: error))
        }
    }

    /// Applies a key to `field`.
    mutating func handle(_ key: Key, in field: Field) {
        switch field {
        case .status:
            let all = BridgeResponseStatus.allCases
            let index = all.firstIndex(of: status) ?? 0
            if key == .right || key == .char(" ") || key == .char("l") { status = all[(index + 1) % all.count] }
            if key == .left || key == .char("h") { status = all[(index + all.count - 1) % all.count] }
        case .data: data.handle(key)
        case .errorCode: errorCode.handle(key)
        case .errorMessage: errorMessage.handle(key)
        case .recoverable:
            if key == .char(" ") || key == .left || key == .right { recoverable.toggle() }
        }
    }

    /// The text field `field` is, if it is one.
    func text(_ field: Field?) -> PrefilledText? {
        switch field {
        case .data: return data
        case .errorCode: return errorCode
        case .errorMessage: return errorMessage
        case .status, .recoverable, nil: return nil
        }
    }

    /// Draws the five fields from row `y`, highlighting `focus`; returns the row below.
    @discardableResult
    func draw(focus: Field?, into buffer: inout Buffer, at y: Int, in rect: Rect) -> Int {
        var y = y
        y = FormDrawing.choice("status", status.rawValue, focused: focus == .status, hint: "←/→ to change", into: &buffer, at: y, in: rect)
        y = FormDrawing.textField("data (JSON)", data, focused: focus == .data, placeholder: "{} or empty for none", into: &buffer, at: y, in: rect)
        y = FormDrawing.textField(
            "error code", errorCode, focused: focus == .errorCode, placeholder: "BUSY, PERMISSION_DENIED, … or empty", into: &buffer, at: y, in: rect)
        y = FormDrawing.textField("error message", errorMessage, focused: focus == .errorMessage, into: &buffer, at: y, in: rect)
        y = FormDrawing.choice(
            "recoverable", recoverable ? "yes" : "no", focused: focus == .recoverable, hint: "space to toggle", into: &buffer, at: y, in: rect)
        return y
    }
}
