import ArgumentParser
import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// `bridge-inspector slot <document|selfie> <action>`: completes, cancels or changes a capture slot.
struct SlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slot",
        abstract: "Act on a capture slot: complete, cancel, enable, disable, permission.",
        discussion: """
            Actions:
              complete     answer the request holding the slot (the slot is BUSY):
                           --result success (default): an image: by default
                             a synthetic PNG the host draws (an ID card,
                             1280x808, or a face, 720x960; tens of KB; any
                             size with --width and --height), or the bytes
                             of --image FILE (a PNG or JPEG: its size and
                             type are read from the file and sent);
                           --result error: --error-code, --error-message,
                             --[no-]recoverable;
                           --result cancelled: --reason.
              cancel       answer it with status cancelled (--reason).
              enable       a disabled slot is reported unsupported, and its
              disable      requests wait in pendingRequests.
              permission   set the permission reported to the journey:
                           granted, denied, notDetermined or restricted.

            complete and cancel print what the host sent: on a terminal one line (such as \
            `completed document slot doc-1: success, image/png 1280×808 35.6 KB → journey`); \
            piped, or with --json, the message as one line of JSON. If the slot \
            is idle (no request holds it) the host refuses: its message is printed on standard \
            error and the exit status is 2. Through GBGBridge's public API (an app, or host \
            --inspect-via public-api) only a document image and a cancellation can be sent: \
            --result error, and an image for selfie, are refused the same way.

            Examples:
              bridge-inspector slot document complete --width 1280 --height 720
              bridge-inspector slot document complete --image passport.jpg
              bridge-inspector slot selfie complete --result error \\
                  --error-code PERMISSION_DENIED
              bridge-inspector slot document cancel --reason "User closed the camera"
              bridge-inspector slot selfie permission denied
            """)

    enum Action: String, CaseIterable, ExpressibleByArgument {
        case complete, cancel, enable, disable, permission
    }

    enum Outcome: String, CaseIterable, ExpressibleByArgument {
        case success, error, cancelled
    }

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The capture slot.", valueName: "slot"))
    var slot: SlotArgument

    @Argument(help: ArgumentHelp("What to do.", valueName: "action"))
    var action: Action

    @Argument(help: ArgumentHelp("For permission: granted, denied, notDetermined or restricted.", valueName: "state"))
    var state: String?

    @Option(help: ArgumentHelp("complete: the kind of result.", valueName: "kind"))
    var result: Outcome?

    @Option(help: ArgumentHelp("complete --result success: the image width reported (1 to 8192). Default: 1280 for document, 720 for selfie, or the --image file's width.", valueName: "pixels"))
    var width: Int?

    @Option(help: ArgumentHelp("complete --result success: the image height reported (1 to 8192). Default: 808 for document, 960 for selfie, or the --image file's height.", valueName: "pixels"))
    var height: Int?

    @Option(help: ArgumentHelp("complete --result success: send this PNG or JPEG file instead of a synthetic PNG.", valueName: "file"), completion: Completions.imageFile)
    var image: String?

    @Option(name: .customLong("mime-type"), help: ArgumentHelp(
        "complete --image: the media type reported. Default: the file's, from its content (image/png or image/jpeg).", valueName: "type"))
    var mimeType: String?

    @OptionGroup var error: ErrorOptions

    @Option(help: ArgumentHelp("cancel, or complete --result cancelled: the reason sent. Default: \"Cancelled from the inspector\".", valueName: "text"))
    var reason: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @OptionGroup var output: SentOutput

    static let defaultReason = "Cancelled from the inspector"

    var idleHint: String {
        "the \(slot.rawValue) slot must be busy (hold a capture request) to \(action == .cancel ? "cancel" : "complete") it; see the slots with `bridge-inspector snapshot`"
    }

    func run() throws {
        try Script.run {
            let command = try makeCommand()
            let session = try selection.session(subscribe: false, client: "bridge-inspector slot")
            defer { session.close() }
            let (_, sent) = try session.perform(command, hint: idleHint)
            if !quiet {
                try output.print(sent) { "\(action == .cancel ? "cancelled" : "completed") \(slot.rawValue) slot \($0.correlationId)" }
            }
        }
    }

    /// The command to send, with every option checked first.
    func makeCommand() throws -> InspectorCommand {
        let kind = slot.kind
        func refuse(_ options: [(String, Bool)], _ context: String) throws {
            if let (name, _) = options.first(where: { $0.1 }) {
                throw ScriptError.usage("\(name) does not apply to \(context)", hint: "see `bridge-inspector slot --help`")
            }
        }
        let successOptions = [("--width", width != nil), ("--height", height != nil), ("--image", image != nil), ("--mime-type", mimeType != nil)]
        let errorOptions = [("--error-code", error.code != nil), ("--error-message", error.message != nil), ("--[no-]recoverable", error.recoverable != nil)]
        if action != .permission, state != nil {
            throw ScriptError.usage("`slot \(slot.rawValue) \(action.rawValue)` takes no further argument (got '\(state ?? "")')")
        }
        switch action {
        case .complete:
            let outcome = result ?? .success
            switch outcome {
            case .success:
                try refuse(errorOptions + [("--reason", reason != nil)], "--result success")
                return .completeSlot(.init(slot: kind, result: try successResult()))
            case .error:
                try refuse(successOptions + [("--reason", reason != nil)], "--result error")
                guard let payload = try error.payload() else {
                    throw ScriptError.usage("--result error needs --error-code", hint: "for example --error-code PERMISSION_DENIED")
                }
                return .completeSlot(.init(slot: kind, result: .error(payload)))
            case .cancelled:
                try refuse(successOptions + errorOptions, "--result cancelled")
                return .completeSlot(.init(slot: kind, result: .cancelled(reason: reason ?? Self.defaultReason)))
            }
        case .cancel:
            try refuse(successOptions + errorOptions + [("--result", result != nil)], "cancel")
            return .cancelSlot(.init(slot: kind, reason: reason ?? Self.defaultReason))
        case .enable, .disable:
            try refuse(successOptions + errorOptions + [("--result", result != nil), ("--reason", reason != nil)], action.rawValue)
            return .setSlotEnabled(.init(slot: kind, enabled: action == .enable))
        case .permission:
            try refuse(successOptions + errorOptions + [("--result", result != nil), ("--reason", reason != nil)], "permission")
            let choices = PermissionState.allCases.map(\.rawValue)
            guard let state else {
                throw ScriptError.usage("`slot \(slot.rawValue) permission` needs a state: \(choices.joined(separator: ", "))")
            }
            guard let permission = PermissionState(rawValue: state) ?? PermissionState.allCases.first(where: { $0.rawValue.lowercased() == state.lowercased() }) else {
                throw ScriptError.usage("'\(state)' is not a permission state; use one of \(choices.joined(separator: ", "))")
            }
            return .setSlotPermission(.init(slot: kind, permissionState: permission))
        }
    }

    private func successResult() throws -> InspectorCommand.SlotResult {
        for (name, value) in [("--width", width), ("--height", height)] {
            if let value, !(1...SyntheticImage.maxSide).contains(value) {
                throw ScriptError.usage("\(name) must be a whole number from 1 to \(SyntheticImage.maxSide) (got \(value))")
            }
        }
        guard let image else {
            if mimeType != nil { throw ScriptError.usage("--mime-type applies only with --image", hint: "a synthetic image is always image/png") }
            let size = SyntheticImage.defaultSize(for: slot.kind)
            return .success(imageBase64: nil, width: width ?? size.width, height: height ?? size.height, mimeType: "image/png")
        }
        // Read and checked (at most SlotImageFile.maxBytes, PNG or JPEG) as the interactive
        // inspector does; the size sent is the file's unless --width or --height says otherwise.
        switch SlotImageFile.read(path: image) {
        case .success(let file):
            return .success(
                imageBase64: file.bytes.base64EncodedString(), width: width ?? file.width, height: height ?? file.height, mimeType: mimeType ?? file.mimeType)
        case .failure(let problem):
            throw ScriptError.usage("--image \(problem)")
        }
    }
}
