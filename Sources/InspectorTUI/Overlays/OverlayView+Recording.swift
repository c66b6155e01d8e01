import TerminalUI

/// Which footer hints of each view send something to the host, so that a recording (read-only:
/// nothing can be sent) does not offer keys it would only refuse. The model leaves these hints
/// out of a view's footer in a recording (``InspectorModel/footerKeys``); the keys still answer
/// with the recording's refusal if pressed.
extension OverlayView {
    var sendingFooterKeys: Set<String> { [] }
}

extension DetailView {
    var sendingFooterKeys: Set<String> { ["r"] }
}

extension RulesView {
    var sendingFooterKeys: Set<String> { ["n"] }
}

extension BreakpointsView {
    var sendingFooterKeys: Set<String> { ["n", "d"] }
}

extension HeldView {
    var sendingFooterKeys: Set<String> { ["Enter", "e", "a", "d", "A"] }
}
