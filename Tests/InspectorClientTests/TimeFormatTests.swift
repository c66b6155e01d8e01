import InspectorClient
import Testing

/// Times an agent frame or a recording file can carry, and what arithmetic on them gives.
private let hostileTimes: [Double] = [
    1e300, -1e300, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 8.64e15 + 1, 9.3e18,
]

@Suite("TimeFormat")
struct TimeFormatTests {
    /// 2023-11-14 22:13:20.000 UTC.
    static let t0: Double = 1_700_000_000_000

    @Test("A time that is not a number or out of range is shown as --:--:--.---, never converted", arguments: hostileTimes)
    func clockRefuses(time: Double) {
        #expect(TimeFormat(utcOffsetSeconds: 0).clock(time) == TimeFormat.unknownClock)
        #expect(TimeFormat(utcOffsetSeconds: 3600).clock(time) == "--:--:--.---")
    }

    @Test("Times within a JavaScript Date's range are still shown, at both ends, in any time zone")
    func clockEdges() {
        let utc = TimeFormat(utcOffsetSeconds: 0)
        #expect(utc.clock(Self.t0) == "22:13:20.000")
        #expect(utc.clock(8.64e15) == "00:00:00.000")
        #expect(utc.clock(-8.64e15) == "00:00:00.000")
        #expect(utc.clock(-1) == "23:59:59.999")
        // An offset of more than a day (only code can set one) cannot overflow either.
        #expect(TimeFormat(utcOffsetSeconds: .max).clock(Self.t0).count == 12)
    }

    @Test("A duration that is NaN or too long is '?'; a negative one, however large, is 0ms")
    func durationRefuses() {
        for value in [Double.nan, .infinity, 1e300, .greatestFiniteMagnitude, 1.8e16] {
            #expect(TimeFormat.duration(ms: value) == "?", "\(value)")
        }
        for value in [-1e300, -Double.infinity, -Double.greatestFiniteMagnitude, -1] {
            #expect(TimeFormat.duration(ms: value) == "0ms", "\(value)")
        }
        #expect(TimeFormat.duration(ms: 2 * 8.64e15) == "4800000000h00m")
        #expect(TimeFormat.duration(ms: 2_345) == "2.3s")
    }
}
