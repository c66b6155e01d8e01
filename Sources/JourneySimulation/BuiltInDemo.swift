/// The built-in demo: the host profile and journey scenario `bridge-inspector host` and
/// `bridge-inspector demo` use when no files are given. The same text is in
/// `examples/profiles/demo.json` and `examples/scenarios/demo.json` (a test keeps them identical).
public enum BuiltInDemo {
    /// The name used for the built-in profile in error messages.
    public static let profileFileName = "<built-in demo profile>"
    /// The name used for the built-in scenario in error messages.
    public static let scenarioFileName = "<built-in demo scenario>"

    /// The demo host profile.
    public static var profile: HostProfile {
        // The text is checked by the tests; a failure here is a programming error.
        do {
            return try HostProfile.parse(json: profileJSON, file: profileFileName)
        } catch {
            fatalError("the built-in demo profile is invalid: \(error)")
        }
    }

    /// The demo journey scenario.
    public static var scenario: JourneyScenario {
        do {
            return try JourneyScenario.parse(json: scenarioJSON, file: scenarioFileName)
        } catch {
            fatalError("the built-in demo scenario is invalid: \(error)")
        }
    }

    /// The text of `examples/profiles/demo.json`.
    public static let profileJSON = #"""
{
  "name": "demo",
  "description": "The built-in demo host: a document slot held busy by a camera UI (manual), a selfie slot with no handler, a handled device.info, a declared but unhandled nfc.read, and a location.get that always fails.",
  "hostVersion": "1.0.0",
  "environment": "ios",
  "messageLogCap": 200,
  "slots": {
    "document": {"handler": "manual", "enabled": true, "permissionState": "granted"},
    "selfie": {"handler": "none", "enabled": true, "permissionState": "notDetermined"}
  },
  "customCapabilities": [
    {
      "id": "device.info",
      "version": "1.0",
      "delayMs": 120,
      "behaviour": {
        "respond": {
          "status": "success",
          "data": {
            "model": "iPhone",
            "name": "Demo iPhone",
            "systemName": "iOS",
            "systemVersion": "17.5",
            "userInterfaceIdiom": "phone"
          }
        }
      }
    },
    {"id": "nfc.read", "version": "1.0", "behaviour": "pending"},
    {
      "id": "location.get",
      "version": "1.0",
      "delayMs": 300,
      "behaviour": {
        "error": {"code": "PERMISSION_DENIED", "message": "Location permission was denied", "recoverable": true}
      }
    }
  ]
}

"""#

    /// The text of `examples/scenarios/demo.json`.
    public static let scenarioJSON = #"""
{
  "name": "demo",
  "description": "The built-in demo journey, paced for a person to watch and looping: capability discovery, a document capture held busy by the camera UI, a second capture refused with BUSY, requests nobody answers (selfie, nfc.read, an unknown action), handled and failing custom capabilities, a malformed message and a steady trickle of ordinary traffic. Each pass leaves three requests pending; the host's 50-pending leak warning appears after about ten minutes unless you answer them from the inspector.",
  "loop": true,
  "steps": [
    {"event": {"name": "journey.step", "data": {"step": "start"}}},
    {"wait": 400},
    {"send": {"payload": {"action": "capability.query"}, "label": "capabilities"}},
    {"awaitResponse": {"label": "capabilities"}},
    {"wait": 600},
    {"event": {"name": "journey.step", "data": {"step": "document"}}},
    {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "front"}}, "label": "documentFront", "timeoutMs": 120000}},
    {"wait": 800},
    {"send": {"payload": {"action": "camera.document.capture", "data": {"side": "back"}}, "label": "documentBack"}},
    {"awaitResponse": {"label": "documentBack", "timeoutMs": 2000}},
    {"wait": 600},
    {"event": {"name": "journey.step", "data": {"step": "selfie"}}},
    {"send": {"payload": {"action": "camera.selfie.capture"}, "label": "selfie"}},
    {"wait": 700},
    {"send": {"payload": {"action": "nfc.read", "data": {"documentType": "passport"}}, "label": "nfc"}},
    {"wait": 700},
    {"send": {"payload": {"action": "device.info"}, "label": "device"}},
    {"awaitResponse": {"label": "device"}},
    {"wait": 500},
    {"send": {"payload": {"action": "location.get"}, "label": "location"}},
    {"awaitResponse": {"label": "location"}},
    {"wait": 600},
    {"sendRaw": "{\"version\": \"1.0\", \"correlationId\": \"web-malformed\", \"type\": \"request\", \"timestamp\": 1732240000000, \"payload\": {\"action\": \"device.info\",}}"},
    {"wait": 700},
    {"send": {"payload": {"action": "wallet.addPass", "data": {"passType": "identity"}}, "label": "unknownAction"}},
    {"wait": 700},
    {"repeat": {"times": 25, "steps": [
      {"event": {"name": "analytics.track", "data": {"event": "screen_view", "screen": "review"}}},
      {"wait": 400},
      {"send": {"payload": {"action": "device.info"}}},
      {"wait": 400},
      {"event": {"name": "analytics.track", "data": {"event": "heartbeat"}}},
      {"wait": 400}
    ]}},
    {"event": {"name": "journey.cancel", "data": {"reason": "The demo journey starts again"}}},
    {"wait": 1500}
  ]
}

"""#
}
