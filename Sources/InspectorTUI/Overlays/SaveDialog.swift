import TerminalUI

/// `w`: asks where to save what the inspector holds as a recording, prefilled with a name made
/// from the time (typing replaces it); Enter saves, Esc backs out. When a file is already there
/// the runner does not touch it, and the dialog comes back asking whether to replace it
/// (``existing``): `y` replaces it, anything else goes back to the name. `s` in the fault rules
/// view asks the same for a fault rules file (``Kind/faultRules``).
struct SaveDialog: OverlayView {
    /// What is saved.
    enum Kind: Equatable {
        /// What the inspector holds, as a recording (`w`).
        case recording
        /// The fault rules listed, as a rules file `fault --file` sets (`s` in ``FaultsView``).
        case faultRules
    }

    /// What is saved.
    var kind: Kind = .recording
    /// Where to save, as typed.
    var path: PrefilledText
    /// What is saved, in a few words ("412 rows (3 marked), 2 pending, lastError").
    var summary: String
    /// The full path of a file already there, while the dialog asks whether to replace it.
    var existing: String?

    /// Asks for a path, prefilled with `path`.
    init(path: String, summary: String, existing: String? = nil, kind: Kind = .recording) {
        self.kind = kind
        self.path = PrefilledText(path)
        self.summary = summary
        self.existing = existing
    }

    var takesText: Bool { existing == nil }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        if let existing {
            if key == .char("y") || key == .char("Y") { return save(existing, overwrite: true) }
            // Anything else keeps the file: back to the name, to choose another.
            self.existing = nil
            return .none
        }
        switch key {
        case .escape:
            return .close
        case .enter:
            guard !path.text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .flash("type a file name to save to, such as \(placeholder)", isError: true)
            }
            return save(path.text, overwrite: false)
        default:
            path.handle(key)
            return .none
        }
    }

    /// The action that saves to `path`.
    private func save(_ path: String, overwrite: Bool) -> OverlayAction {
        switch kind {
        case .recording: return .saveRecording(path: path, overwrite: overwrite)
        case .faultRules: return .saveFaultRules(path: path, overwrite: overwrite)
        }
    }

    /// The example name in the empty field.
    private var placeholder: String { kind == .recording ? "session.jsonl" : "faults.json" }

    var footerKeys: [(key: String, label: String)] {
        if existing != nil { return [("y", "replace it"), ("n/Esc", "another name")] }
        return [("Enter", "save"), ("Esc", "back")] + path.footerKeys
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = min(76, area.width)
        let text: String
        switch kind {
        case .recording:
            text = existing.map { "\($0) already exists. Replace it with this recording?" }
                ?? "Save what the inspector holds (\(summary)) as a recording; open it later with bridge-inspector open FILE."
        case .faultRules:
            text = existing.map { "\($0) already exists. Replace it with these fault rules?" }
                ?? "Save \(summary) as a fault rules file; set them again with o here, bridge-inspector fault --file FILE, or in a fault scenario's \"faults\"."
        }
        let words = TextWrap.wrap(text, width: width - 4)
        let title = kind == .recording ? "Save as a recording" : "Save fault rules"
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: words.count + (existing == nil ? 6 : 4), title: title)
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        guard existing == nil else {
            buffer.write("y: replace it   n / Esc: choose another name", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
            return
        }
        let fields = Rect(x: inner.x + 1, y: inner.y, width: max(1, inner.width - 1), height: inner.height)
        FormDrawing.textField("file", path, focused: true, placeholder: placeholder, into: &buffer, at: inner.y + words.count + 1, in: fields)
        buffer.write("Enter: save   Esc: back", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}
