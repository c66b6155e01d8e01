// swift-tools-version: 6.0
//
// The inspector for iOS apps that embed GBG's closed GBGBridge: the part of bridge-inspector
// that names GBGBridge, WebKit, UIKit and SwiftUI. It is a package of its own, beside the root
// one, so that building and testing bridge-inspector on Linux never resolves GBG's binary.
// Add it to the app's Xcode project as a local package (File > Add Package Dependencies… >
// Add Local…, this folder) and link `GBGBridgeAppInspector` to the app target, in debug builds
// only. docs/real-apps.md says how, and what was compiled against what.
//
//   GBGBridgeNames          the one module that imports GBGBridge, and nothing of ours: GBG's
//                           names are resolved there and handed on as plain values (JSON, strings)
//   GBGBridgeAppInspector   what an app calls: GBGBridgeInspector.start(host:webView:...), the
//                           SwiftUI modifier .gbgBridgeInspector(...), the page script in WebKit
//
// Neither is built on Linux: Scripts/typecheck-apple-code.sh type-checks both against interface
// stubs (Integrations/AppleStubs) under every reading of GBG's docs, in CI.
import PackageDescription

let package = Package(
    name: "GBGBridgeApp",
    platforms: [.iOS(.v16)],
    products: [
        .library(name: "GBGBridgeAppInspector", targets: ["GBGBridgeAppInspector"]),
    ],
    dependencies: [
        .package(name: "bridge-inspector", path: "../.."),
        // GBG's release tag `ios-bridge-v1.0.0` is not a semantic version, so `from:` and
        // `exact:` cannot name it; SwiftPM hands `revision:` to git, which takes a tag name as
        // well as a commit hash. Pin the same revision your app uses (Xcode shows it under
        // Package Dependencies), or the tag's commit hash.
        .package(url: "https://github.com/gbgplc/gbg-go-ios-sdk", revision: "ios-bridge-v1.0.0"),
    ],
    targets: [
        .target(
            name: "GBGBridgeNames",
            dependencies: [.product(name: "GBGBridge", package: "gbg-go-ios-sdk")]),
        .target(
            name: "GBGBridgeAppInspector",
            dependencies: [
                "GBGBridgeNames",
                .product(name: "BridgeCore", package: "bridge-inspector"),
                .product(name: "InspectorAgent", package: "bridge-inspector"),
                .product(name: "GBGBridgeInspector", package: "bridge-inspector"),
            ],
            linkerSettings: [.linkedFramework("WebKit"), .linkedFramework("UIKit")]),
    ],
    swiftLanguageModes: [.v6]
)
