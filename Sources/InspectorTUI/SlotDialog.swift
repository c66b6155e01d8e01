import BridgeCore
import Foundation
import InspectorProtocol
import TerminalUI

/// Completes a busy capture slot's request: with a success (a synthetic PNG of a chosen size,
/// or an image file), an error, or a cancellation with a reason; the exact response the journey
/// will receive is shown before it is sent.
public struct SlotDialog: Sendable {
    /// What the person chose to do with a slot.
    public enum Action: Sendable, Equatable {
        case complete
        case cancel
    }

    /// The kinds of result.
    enum Outcome: String, CaseIterable {
        case success, error, cancelled
    }

    /// The slot.
    public let slot: WireSlot
    var outcome = Outcome.success
    var width = TextInput(text: "1280")
    var height = TextInput(text: "720")
    var imageFile = TextInput()
    var errorCode = TextInput(text: BridgeErrorCode.permissionDenied.rawValue)
    var errorMessage = TextInput(text: BridgeErrorCode.permissionDenied.defaultMessage)
    var recoverable = true
    var reason = TextInput(text: "Cancelled from the inspector")
    var field = 0

    init(slot: WireSlot) {
        self.slot = slot
    }

    /// The fields shown for the current outcome, in Tab order (0 is always the outcome).
    var fieldCount: Int {
        switch outcome {
        case .success: return 4
        case .error: return 4
        case .cancelled: return 2
        }
    }

    /// The command, or why it cannot be sent yet.
    var command: Result<InspectorCommand, DataFieldError> {
        let result: InspectorCommand.SlotResult
        switch outcome {
        case .success:
            guard let w = Int(width.text), let h = Int(height.text), (1...SyntheticImage.maxSide).contains(w), (1...SyntheticImage.maxSide).contains(h) else {
                return .failure(DataFieldError(message: "width and height must be whole numbers from 1 to \(SyntheticImage.maxSide)"))
            }
            let path = imageFile.text.trimmingCharacters(in: .whitespaces)
            if path.isEmpty {
                result = .success(imageBase64: nil, width: w, height: h, mimeType: "image/png")
            } else {
                let expanded = (path as NSString).expandingTildeInPath
                guard let bytes = FileManager.default.contents(atPath: expanded) else {
                    return .failure(DataFieldError(message: "cannot read the image file \(path)"))
                }
                result = .success(imageBase64: bytes.base64EncodedString(), width: w, height: h, mimeType: Self.mimeType(forPath: expanded))
            }
        case .error:
            let code = errorCode.text.trimmingCharacters(in: .whitespaces)
            guard !code.isEmpty else { return .failure(DataFieldError(message: "an error needs a code, such as PERMISSION_DENIED")) }
            result = .error(BridgeErrorPayload(code: code, message: errorMessage.text, recoverable: recoverable))
        case .cancelled:
            result = .cancelled(reason: reason.text)
        }
        return .success(.completeSlot(.init(slot: slot.kind, result: result)))
    }

    static func mimeType(forPath path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "heic": return "image/heic"
        case "webp": return "image/webp"
        default: return "image/jpeg"
        }
    }

    /// The response the journey will receive; a synthetic image is shown by its size (the agent makes it).
    func wireMessage(now: Double) -> Data? {
        guard case .success(.completeSlot(let args)) = command else { return nil }
        let capture: CaptureResult
        switch args.result {
        case .success(let base64, let w, let h, let mime):
            let data = base64.flatMap { Data(base64Encoded: $0) } ?? SyntheticImage.png(width: min(w, 64), height: min(h, 64))
            let image = DocumentCaptureResult(imageData: data, width: w, height: h, mimeType: mime ?? "image/png")
            capture = slot.kind == .document ? .document(image) : .selfie(SelfieCaptureResult(imageData: data, width: w, height: h, mimeType: image.mimeType))
        case .error(let error): capture = .failure(error)
        case .cancelled(let reason): capture = .cancelled(reason: reason)
        }
        let response = capture.response
        let message = BridgeMessage(
            correlationId: slot.activeRequest ?? "?", type: .response, timestamp: now.rounded(),
            payload: .init(action: slot.activeAction ?? slot.action, data: response.data, status: response.status, error: response.error))
        return try? BridgeMessageCodec().encode(message)
    }

    var footerKeys: [(key: String, label: String)] {
        [("Enter", "send"), ("Tab", "field"), ("←→", "result kind"), ("Esc", "cancel")]
    }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            field = (field + 1) % fieldCount
        case .backTab:
            field = (field + fieldCount - 1) % fieldCount
        case .enter:
            switch command {
            case .success(let command):
                return .send(command, label: "complete the \(slot.kind.rawValue) capture \(slot.activeRequest ?? "") with \(outcome.rawValue)")
            case .failure(let error):
                return .flash(error.message, isError: true)
            }
        default:
            if field == 0 {
                let all = Outcome.allCases
                let index = all.firstIndex(of: outcome) ?? 0
                if key == .right || key == .char(" ") || key == .char("l") { outcome = all[(index + 1) % all.count] }
                if key == .left || key == .char("h") { outcome = all[(index + all.count - 1) % all.count] }
                return .none
            }
            switch (outcome, field) {
            case (.success, 1): _ = width.handle(key)
            case (.success, 2): _ = height.handle(key)
            case (.success, 3): _ = imageFile.handle(key)
            case (.error, 1): _ = errorCode.handle(key)
            case (.error, 2): _ = errorMessage.handle(key)
            case (.error, 3): if key == .char(" ") || key == .left || key == .right { recoverable.toggle() }
            case (.cancelled, 1): _ = reason.handle(key)
            default: break
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let title = "Complete the \(slot.kind.rawValue) capture \(slot.activeRequest ?? "")"
        let inner = DialogFrame.centered(&buffer, area: area, width: 96, height: area.height, title: title)
        var y = inner.y
        let held = slot.activeSince.map { " for " + TimeFormat.duration(ms: model.now - $0) } ?? ""
        y = FormDrawing.note("the slot is BUSY\(held); the journey is waiting for this response", style: Theme.dim, into: &buffer, at: y, in: inner)
        y += 1
        y = FormDrawing.choice("result", outcome.rawValue, focused: field == 0, hint: "←/→: success, error, cancelled", into: &buffer, at: y, in: inner)
        switch outcome {
        case .success:
            y = FormDrawing.textField("width", width, focused: field == 1, into: &buffer, at: y, in: inner)
            y = FormDrawing.textField("height", height, focused: field == 2, into: &buffer, at: y, in: inner)
            y = FormDrawing.textField("image file", imageFile, focused: field == 3, placeholder: "empty: a synthetic PNG of that size", into: &buffer, at: y, in: inner)
        case .error:
            y = FormDrawing.textField("error code", errorCode, focused: field == 1, into: &buffer, at: y, in: inner)
            y = FormDrawing.textField("error message", errorMessage, focused: field == 2, into: &buffer, at: y, in: inner)
            y = FormDrawing.choice("recoverable", recoverable ? "yes" : "no", focused: field == 3, hint: "space to toggle", into: &buffer, at: y, in: inner)
        case .cancelled:
            y = FormDrawing.textField("reason", reason, focused: field == 1, into: &buffer, at: y, in: inner)
        }
        switch command {
        case .failure(let error): y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case .success: y = FormDrawing.note("✓ ready: Enter sends", style: Theme.success, into: &buffer, at: y, in: inner)
        }
        FormDrawing.preview(wireMessage(now: model.now), title: "the journey will receive", into: &buffer, from: y + 1, in: inner)
    }
}
