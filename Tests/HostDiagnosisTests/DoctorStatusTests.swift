import HostDiagnosis
import Testing

@Suite struct DoctorStatusTests {
    @Test func theWorstStatusWinsAndNotRunNeverFails() {
        #expect([DoctorStatus.ok, .failure, .warning].max() == .failure)
        #expect([DoctorStatus.notRun, .ok].max() == .ok)
        #expect([DoctorStatus.notRun].max() == .notRun)
        #expect(DoctorStatus.notRun.rawValue == "not-run")
    }
}
