import HostDiagnosis
import Testing

@Suite struct DoctorStatusTests {
    @Test func theWorstStatusWinsAndNotRunNeverFails() {
        #expect([DoctorStatus.ok, .failure, .warning].max() == .failure)
        #expect([DoctorStatus.notRun, .ok].max() == .ok)
        #expect([DoctorStatus.notRun].max() == .notRun)
        #expect(DoctorStatus.notRun.rawValue == "not-run")
    }

    /// The TUI and `doctor` print the same marks and counts.
    @Test func symbolsAndTally() {
        #expect(DoctorStatus.allCases.map(\.symbol) == ["–", "✓", "!", "✗"])
        func check(_ id: DoctorCheckID, _ status: DoctorStatus) -> DoctorCheck { DoctorCheck(id: id, status: status, summary: "") }
        let some = DoctorReport(host: nil, time: 0, checks: [check(.lastError, .failure), check(.journey, .warning), check(.duplicateIds, .warning), check(.slotBusy, .ok)])
        #expect(some.tally == "1 failure, 2 warnings, 1 ok")
        let notRun = DoctorReport(host: nil, time: 0, checks: [check(.lostMessages, .notRun), check(.journey, .ok), check(.slotBusy, .ok)])
        #expect(notRun.tally == "0 failures, 0 warnings, 2 ok, 1 not run")
    }
}
