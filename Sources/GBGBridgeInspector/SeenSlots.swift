import BridgeCore
import Foundation

/// What ``PublicAPIHost`` last saw of GBGBridge's two capture slots, one state per slot, held
/// in place instead of in a dictionary.
///
/// The adapter compares both slots after every message, and nearly always neither changed. Kept
/// in a dictionary, each look hashed the kind and copied the whole state out (its strings and its
/// active request) only to compare five fields. Here ``matches(_:_:)``
/// compares those fields where the state lies, and the adapter makes a new state only when one
/// differs. Outside the generic adapter, so that it is compiled once, for concrete types.
///
/// ```swift
/// if !seen.matches(.document, reading.document) { seen[.document] = newState }
/// ```
struct SeenSlots {
    /// Each slot's state, valid only when its `has…` flag is set: kept unwrapped so that a look
    /// reads its fields in place (an optional state was copied out to be unwrapped).
    private var document = Self.placeholder(.document)
    private var selfie = Self.placeholder(.selfie)
    private var hasDocument = false
    private var hasSelfie = false

    /// The state last seen of `kind`'s slot (`nil` before the first look).
    subscript(kind: CaptureCapability.Kind) -> CaptureSlotState? {
        get {
            switch kind {
            case .document: hasDocument ? document : nil
            case .selfie: hasSelfie ? selfie : nil
            }
        }
        set {
            switch kind {
            case .document:
                hasDocument = newValue != nil
                document = newValue ?? Self.placeholder(.document)
            case .selfie:
                hasSelfie = newValue != nil
                selfie = newValue ?? Self.placeholder(.selfie)
            }
        }
    }

    /// Whether the state last seen of `kind`'s slot has the values of `reading`: the state made
    /// again from them would equal it (its other fields follow from the kind, and its start time
    /// from the active request), so it need not be made.
    ///
    /// It changes nothing. It is `mutating` only so that a call on a class's property (the
    /// adapter's) reaches the states where they lie: a non-mutating call copied both states
    /// (their strings retained and released) on every look.
    mutating func matches(_ kind: CaptureCapability.Kind, _ reading: CaptureSlotReading) -> Bool {
        switch kind {
        case .document: hasDocument && Self.fieldsMatch(&document, reading)
        case .selfie: hasSelfie && Self.fieldsMatch(&selfie, reading)
        }
    }

    /// ``matches(_:_:)`` for one state, read in place (`inout`, never written).
    private static func fieldsMatch(_ seen: inout CaptureSlotState, _ reading: CaptureSlotReading) -> Bool {
        seen.hasHandler == reading.hasHandler && seen.isEnabled == reading.isEnabled && seen.isSupported == reading.isSupported
            && seen.permissionState == reading.permissionState && CaptureSlotReading.sameRequest(seen.activeRequest, reading.activeRequest)
    }

    /// What stands in a slot's place before it is first seen (never read: its flag is unset).
    private static func placeholder(_ kind: CaptureCapability.Kind) -> CaptureSlotState {
        CaptureSlotState(
            kind: kind, capabilityId: "", action: "", version: "", hasHandler: false, isEnabled: false, isSupported: false,
            permissionState: .notDetermined, activeRequest: nil, activeSince: nil)
    }
}
