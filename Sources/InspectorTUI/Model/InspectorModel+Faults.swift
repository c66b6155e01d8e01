import InspectorClient
import InspectorProtocol

/// Fault rules from the TUI: the rules file `o` loads in the fault rules view (``FaultsView``),
/// and the one `s` saves.
///
/// The model stays pure: ``FaultFileDialog`` asks for the file, the runner reads it
/// (``InspectorEffect/loadFaultRules(path:)``) and hands back what it read
/// (``InspectorInput/faultRulesLoaded(path:_:)``); each rule then goes to the host as `addFault`,
/// through the same path as one typed in ``FaultDialog``, so each is in the action log with the
/// host's answer.
extension InspectorModel {
    /// What the runner read at `path`: every rule is sent, or, when the file cannot be used, the
    /// dialog comes back with the name and the reason (where in the file, and what is wrong).
    mutating func faultRulesLoaded(path: String, result: Result<FaultRuleFile, FaultRuleFileError>) -> [InspectorEffect] {
        let file: FaultRuleFile
        switch result {
        case .failure(let error):
            showFlash("cannot load fault rules from \(path): \(error.description)", isError: true)
            overlays.append(FaultFileDialog(path: path, problem: error.description))
            return []
        case .success(let read):
            file = read
        }
        var effects: [InspectorEffect] = []
        for rule in file.faults {
            effects += send(.addFault(rule), label: "add fault \(rule.filter): \(rule.summary) (from \(path))")
        }
        guard !effects.isEmpty else { return [] }
        let count = file.faults.count
        showFlash(
            "\(count) fault rule\(count == 1 ? "" : "s") from \(path) sent: \(file.faults.map(\.summary).joined(separator: "; ")) (A shows each answer)",
            isError: false)
        return effects
    }

    /// What `s` saves, in a few words (``FaultsView/saveSummary(_:clientId:)``).
    var faultRulesSummary: String { FaultsView.saveSummary(live.faults, clientId: readOnly ? nil : clientId) }

    /// Makes the rules file's bytes (every rule listed, every inspector's, oldest first: the
    /// order the host tries them) and asks the runner to write them to `path`.
    mutating func saveFaultRules(to path: String, overwrite: Bool) -> [InspectorEffect] {
        guard let bytes = try? FaultRuleFile(faults: live.faults.map(\.rule)).encoded() else {
            showFlash("the fault rules could not be written as JSON", isError: true)
            return []
        }
        return [.saveFaultRules(path: path, bytes: [UInt8](bytes), overwrite: overwrite)]
    }

    /// What the runner made of a save.
    mutating func faultRulesSaved(_ outcome: RecordingFile.Outcome) {
        switch outcome {
        case .saved(let path, _):
            showFlash(
                "saved \(faultRulesSummary) to \(path) (bridge-inspector fault --file \(ShellWord.quoted(path)) sets them again)", isError: false)
        case .exists(let path):
            open(SaveDialog(path: path, summary: faultRulesSummary, existing: path, kind: .faultRules))
        case .failed(let path, let reason):
            showFlash("not saved to \(path): \(reason) (s to try again)", isError: true)
        }
    }

    /// The ids of the fault rules this inspector set (they go when it disconnects); none before
    /// the agent's hello names this connection, or in a recording.
    var ownFaultIds: Set<String> {
        guard let clientId, !readOnly else { return [] }
        return Set(live.faults.filter { $0.ownerClient == clientId }.map(\.id))
    }
}
