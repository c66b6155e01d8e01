// What an app gets with `import GBGBridgeAppInspector`: the inspector type (`GBGBridgeInspector`)
// and the TCP options for a device. Nothing of BridgeCore is re-exported: its `BridgeHost`,
// `BridgeMessage` and the rest would clash with GBGBridge's in the app's files.
@_exported import GBGBridgeInspector
@_exported import struct InspectorAgent.InspectorTCPOptions
