import BridgeCore
import Foundation
@testable import GBGBridgeInspector
import InspectorProtocol
import Testing

/// `PublicAPIHost` keeps the slots' states in `SeenSlots` instead of a dictionary by kind, and
/// asks it whether a slot still matches instead of copying the state out and comparing: both must
/// answer exactly as the dictionary and the comparison they replaced.
@Suite("What the adapter last saw of the capture slots, against the dictionary it replaced")
struct SeenSlotsTests {
    /// The fields the adapter reads from a slot.
    struct Look: Equatable {
        var hasHandler: Bool
        var isEnabled: Bool
        var isSupported: Bool
        var permissionState: PermissionState
        var activeRequest: BridgeMessage?

        var reading: CaptureSlotReading {
            CaptureSlotReading(
                hasHandler: hasHandler, isEnabled: isEnabled, isSupported: isSupported, permissionState: permissionState,
                activeRequest: activeRequest)
        }
    }

    /// The comparison as the adapter had it, on a state copied out of the dictionary.
    static func referenceMatches(_ previous: CaptureSlotState?, _ look: Look) -> Bool {
        guard let previous else { return false }
        return previous.hasHandler == look.hasHandler && previous.isEnabled == look.isEnabled && previous.isSupported == look.isSupported
            && previous.permissionState == look.permissionState && previous.activeRequest == look.activeRequest
    }

    /// Requests that differ in one field at a time, so that only a full comparison tells them
    /// apart: `PublicStateReadingTests.requests`, shared.
    static var requests: [BridgeMessage?] { PublicStateReadingTests.requests }

    static func randomLook(_ random: inout SplitMix64) -> Look {
        let permissions: [PermissionState] = [.notDetermined, .granted, .denied, .restricted]
        return Look(
            hasHandler: random.next() % 2 == 0, isEnabled: random.next() % 2 == 0, isSupported: random.next() % 2 == 0,
            permissionState: permissions[Int(random.next() % UInt64(permissions.count))],
            activeRequest: requests[Int(random.next() % UInt64(requests.count))])
    }

    @Test("random looks at both slots: the same answers, the same states kept", arguments: [1, 2, 3, 42] as [UInt64])
    func followsTheDictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var seen = SeenSlots()
        var reference: [CaptureCapability.Kind: CaptureSlotState] = [:]
        var lastLook: [CaptureCapability.Kind: Look] = [:]
        var matched = 0
        for step in 0..<4_000 {
            let kind = CaptureCapability.Kind.allCases[Int(random.next() % 2)]
            // Usually the slot as it was (what the adapter nearly always sees), else a new look.
            let look = random.next() % 3 != 0 ? lastLook[kind] ?? Self.randomLook(&random) : Self.randomLook(&random)
            lastLook[kind] = look
            let matches = seen.matches(kind, look.reading)
            #expect(matches == Self.referenceMatches(reference[kind], look), "seed \(seed), step \(step)")
            if matches { matched += 1 }
            if !matches {
                let state = CaptureSlotState(
                    kind: kind, capabilityId: kind.capabilityId, action: kind.action, version: "", hasHandler: look.hasHandler,
                    isEnabled: look.isEnabled, isSupported: look.isSupported, permissionState: look.permissionState,
                    activeRequest: look.activeRequest, activeSince: look.activeRequest == nil ? nil : Date(timeIntervalSince1970: Double(step)))
                seen[kind] = state
                reference[kind] = state
            }
            for each in CaptureCapability.Kind.allCases {
                #expect(seen[each] == reference[each], "seed \(seed), step \(step), \(each)")
            }
        }
        #expect(matched > 1_000, "most looks find the slot as it was")
    }

    @Test("nothing seen yet matches nothing; a state set is read back for its kind only")
    func emptyAndSet() {
        var seen = SeenSlots()
        let matchesNothingSeen = seen.matches(
            .document, CaptureSlotReading(hasHandler: false, isEnabled: true, isSupported: false, permissionState: .notDetermined, activeRequest: nil))
        #expect(!matchesNothingSeen)
        let state = CaptureSlotState(
            kind: .selfie, capabilityId: "camera.selfie", action: "camera.selfie.capture", version: "", hasHandler: true, isEnabled: true,
            isSupported: true, permissionState: .granted, activeRequest: nil, activeSince: nil)
        seen[.selfie] = state
        #expect(seen[.selfie] == state)
        #expect(seen[.document] == nil)
        let reading = CaptureSlotReading(hasHandler: true, isEnabled: true, isSupported: true, permissionState: .granted, activeRequest: nil)
        let selfieMatches = seen.matches(.selfie, reading)
        let documentMatches = seen.matches(.document, reading)
        #expect(selfieMatches)
        #expect(!documentMatches, "the other slot was never seen")
        seen[.selfie] = nil
        #expect(seen[.selfie] == nil)
    }
}
