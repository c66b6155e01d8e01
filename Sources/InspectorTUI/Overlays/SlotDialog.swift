import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Completes a busy capture slot's request: with a success (a synthetic PNG of a chosen size,
/// drawn and compressed by the host, ``SyntheticImage/capturePNG(_:width:height:)``,
/// or an image file), an error, or a cancellation with a reason; the response the journey will
/// receive is shown before it is sent.
///
/// An image file is read when its field is committed (Tab out of it, or Enter to send), never
/// while drawing, and at most ``SlotImageFile/maxBytes`` of it, the limit the `slot` command
/// uses too. The preview stands in a description for the image bytes (a synthetic image is made
/// by the host, and a file's base64 is megabytes), and shows every other field exactly.
///
/// The dialog knows the request it completes (the slot's active request when it opened): once
/// the slot no longer holds it (answered elsewhere, cancelled by another inspector, the journey
/// gone), or while the host is disconnected, it says so, and Enter sends nothing and keeps what
/// was typed.
public struct SlotDialog: OverlayView {
    /// What the person chose to do with a slot.
    public enum Action: Sendable, Equatable {
        case complete
        case cancel
    }

    /// The kinds of result.
    enum Outcome: String, CaseIterable {
        case success, error, cancelled
    }

    /// An image file as read when its field was last committed.
    struct ReadImage: Sendable {
        /// The field's text (trimmed) when it was read.
        var path: String
        /// The file, or why it cannot be sent.
        var result: Result<SlotImageFile, SlotImageFile.Problem>
        /// The file's base64, made once when it was read (`nil` when it could not be).
        var base64: String?
    }

    /// The slot.
    public let slot: WireSlot
    var outcome = Outcome.success
    /// The size sent, prefilled (a default, or the image file's own size): typing replaces it.
    var width: PrefilledText
    var height: PrefilledText
    var imageFile = TextInput()
    /// The image file as read at the last commit; `nil` until one is read.
    private(set) var readImage: ReadImage?
    var errorCode = PrefilledText(BridgeErrorCode.permissionDenied.rawValue)
    var errorMessage = PrefilledText(BridgeErrorCode.permissionDenied.defaultMessage)
    var recoverable = true
    /// The cancellation's reason, prefilled: the first character typed replaces it.
    var reason = PrefilledText(ConfirmDialog.defaultCancelReason)
    var field = 0

    /// The field index of the image file (for the success outcome).
    static let imageFileField = 3

    init(slot: WireSlot) {
        self.slot = slot
        let size = SyntheticImage.defaultSize(for: slot.kind)
        width = PrefilledText(String(size.width))
        height = PrefilledText(String(size.height))
    }

    /// Why this dialog's request cannot be completed now, or `nil` when it can.
    func staleness(in context: OverlayContext) -> String? {
        Self.staleness(of: slot.kind, holding: slot.activeRequest, in: context)
    }

    /// Why a command about the request `held` in the `kind` slot cannot be sent now, or `nil`
    /// when it can: the host is disconnected, or the slot no longer holds that request. Shared
    /// with the confirmation of `x`, so both say it in the same words.
    static func staleness(of kind: CaptureCapability.Kind, holding held: String?, in context: OverlayContext) -> String? {
        if context.live.isDisconnected {
            return "not connected to the host: nothing can be sent now; what you typed stays here (Esc closes)"
        }
        let now = context.live.slots.first { $0.kind == kind }?.activeRequest
        guard let held, now == held else {
            return "the \(kind.rawValue) slot no longer holds \(held ?? "a request") (answered elsewhere or cancelled): Esc closes"
        }
        return nil
    }

    /// The fields shown for the current outcome, in Tab order (0 is always the outcome).
    var fieldCount: Int {
        switch outcome {
        case .success: return 4
        case .error: return 4
        case .cancelled: return 2
        }
    }

    /// The image file field's text, trimmed.
    private var imagePath: String { imageFile.text.trimmingCharacters(in: .whitespaces) }

    /// Reads the image file named in its field (the one place the file is read): called when the
    /// field is committed, so rendering never touches the file.
    mutating func readImageFile() {
        let path = imagePath
        guard !path.isEmpty else {
            readImage = nil
            return
        }
        let result = SlotImageFile.read(path: path)
        let newlyRead = readImage.map { $0.path != path || $0.base64 == nil } ?? true
        if newlyRead, case .success(let file) = result {
            // The size sent is the file's (from its header): shown in the width and height
            // fields, where it can still be changed on purpose.
            width = PrefilledText(String(file.width))
            height = PrefilledText(String(file.height))
        }
        readImage = ReadImage(path: path, result: result, base64: try? result.get().bytes.base64EncodedString())
    }

    /// The command, or why it cannot be sent yet. Does no I/O: it uses the image file as read at
    /// the last commit.
    var command: Result<InspectorCommand, DataFieldError> {
        let result: InspectorCommand.SlotResult
        switch outcome {
        case .success:
            guard let w = Int(width.text), let h = Int(height.text), (1...SyntheticImage.maxSide).contains(w), (1...SyntheticImage.maxSide).contains(h) else {
                return .failure(DataFieldError(message: "width and height must be whole numbers from 1 to \(SyntheticImage.maxSide)"))
            }
            let path = imagePath
            if path.isEmpty {
                result = .success(imageBase64: nil, width: w, height: h, mimeType: "image/png")
            } else {
                guard let readImage, readImage.path == path else {
                    return .failure(DataFieldError(message: "the image file is read when you press Tab or Enter"))
                }
                switch readImage.result {
                case .success(let file):
                    result = .success(imageBase64: readImage.base64 ?? "", width: w, height: h, mimeType: file.mimeType)
                case .failure(let problem):
                    return .failure(DataFieldError(message: "image file " + problem.describing(as: (problem.path as NSString).lastPathComponent)))
                }
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

    /// What stands in the preview for the image bytes: the host makes a synthetic image itself
    /// (``SyntheticImage/capturePNG(_:width:height:)``), and a file's base64 is too long
    /// to show, so the preview names what will be there instead.
    static func imageDescription(file: SlotImageFile?, width: Int, height: Int) -> String {
        guard let file else { return "<synthetic \(width)×\(height) PNG, made by the host>" }
        return "<base64 of \(Self.fileName(file)), \(TimeFormat.bytes(file.bytes.count))>"
    }

    /// The last part of a file's path, which is what fits in a preview line.
    static func fileName(_ file: SlotImageFile) -> String {
        (file.path as NSString).lastPathComponent
    }

    /// The response the journey will receive, with a description in place of the image bytes
    /// (``imageDescription(file:width:height:)``); every other field is as sent.
    func wireMessage(now: Double) -> Data? {
        guard case .success(.completeSlot(let args)) = command else { return nil }
        let response: (status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?)
        switch args.result {
        case .success(let base64, let w, let h, let mime):
            // The keys and values the host sends, from an empty image; only the bytes are described.
            let image = DocumentCaptureResult(imageData: Data(), width: w, height: h, mimeType: mime ?? "image/png")
            let capture: CaptureResult = slot.kind == .document ? .document(image) : .selfie(SelfieCaptureResult(imageData: Data(), width: w, height: h, mimeType: image.mimeType))
            var data = capture.response.data ?? [:]
            let file = base64 == nil ? nil : try? readImage?.result.get()
            data["imageBase64"] = .string(Self.imageDescription(file: file, width: w, height: h))
            response = (.success, data, nil)
        case .error(let error): response = CaptureResult.failure(error).response
        case .cancelled(let reason): response = CaptureResult.cancelled(reason: reason).response
        }
        let message = BridgeMessage(
            correlationId: slot.activeRequest ?? "?", type: .response, timestamp: now.rounded(),
            payload: .init(action: slot.activeAction ?? slot.action, data: response.data, status: response.status, error: response.error))
        return try? BridgeMessageCodec().encode(message)
    }

    /// Enter and Esc, then the focused field's own keys (its editing keys for a text field),
    /// then Tab: the same order as the respond dialog's footer.
    /// A form: a character typed is text.
    var takesText: Bool { true }

    var footerKeys: [(key: String, label: String)] {
        let focused: [(key: String, label: String)]
        switch (outcome, field) {
        case (_, 0): focused = [("←→", "result kind")]
        case (.success, 1): focused = width.footerKeys
        case (.success, 2): focused = height.footerKeys
        case (.error, 1): focused = errorCode.footerKeys
        case (.error, 2): focused = errorMessage.footerKeys
        case (.error, 3): focused = [("space", "toggle")]
        case (.cancelled, 1): focused = reason.footerKeys
        default: focused = PrefilledText.editingKeys
        }
        return [("Enter", "send"), ("Esc", "cancel")] + focused + [("Tab", "field")]
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape:
            return .close
        case .tab:
            if outcome == .success, field == Self.imageFileField { readImageFile() }
            field = (field + 1) % fieldCount
        case .backTab:
            if outcome == .success, field == Self.imageFileField { readImageFile() }
            field = (field + fieldCount - 1) % fieldCount
        case .enter:
            if let stale = staleness(in: context) { return .flash(stale, isError: true) }
            // Sending commits the field: read the file unless it was read at this path already
            // (again after a failure, in case the file was fixed meanwhile).
            if outcome == .success, readImage?.path != imagePath || readImage?.base64 == nil { readImageFile() }
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
            case (.success, 1): width.handle(key)
            case (.success, 2): height.handle(key)
            case (.success, 3): _ = imageFile.handle(key)
            case (.error, 1): errorCode.handle(key)
            case (.error, 2): errorMessage.handle(key)
            case (.error, 3): if key == .char(" ") || key == .left || key == .right { recoverable.toggle() }
            case (.cancelled, 1): reason.handle(key)
            default: break
            }
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let title = "Complete the \(slot.kind.rawValue) capture \(slot.activeRequest ?? "")"
        let inner = DialogFrame.centered(&buffer, area: area, width: 96, height: area.height, title: title)
        var y = inner.y
        let held = slot.activeSince.map { " for " + TimeFormat.duration(ms: context.now - $0) } ?? ""
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
        switch (staleness(in: context), command) {
        case (let stale?, _): y = FormDrawing.note("✗ " + stale, style: Theme.danger, into: &buffer, at: y, in: inner)
        case (nil, .failure(let error)): y = FormDrawing.note("✗ " + error.message, style: Theme.danger, into: &buffer, at: y, in: inner)
        case (nil, .success):
            var ready = "✓ ready: Enter sends"
            if outcome == .success, !imagePath.isEmpty, case .success(let file)? = readImage?.result {
                ready += " \(Self.fileName(file)) (\(file.width)×\(file.height) \(file.mimeType), \(TimeFormat.bytes(file.bytes.count)))"
            }
            y = FormDrawing.note(ready, style: Theme.success, into: &buffer, at: y, in: inner)
        }
        FormDrawing.preview(wireMessage(now: context.now), title: "the journey will receive", into: &buffer, from: y + 1, in: inner)
    }
}
