// swift-tools-version: 6.0
import PackageDescription

/// `bridge-inspector-webkit`: a real WebKitGTK web view driven over a JSON-lines protocol
/// (docs/web-journeys.md, "The WebKit runner", has the protocol). Linux only: it needs
/// `libwebkit2gtk-4.1-dev` (WebKitGTK for GTK 3) and, for `--headless`, `Xvfb`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "WebKitRunner",
    products: [
        .executable(name: "bridge-inspector-webkit", targets: ["WebKitRunner"]),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        // Everything that does not touch WebKit or GTK: the protocol's encoding and decoding,
        // line splitting, option parsing, writing events. Tested without a display.
        .target(
            name: "WebKitRunnerCore",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "WebKitRunner",
            dependencies: ["WebKitRunnerCore", "CWebKitGTK"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebKitRunnerTests",
            dependencies: ["WebKitRunnerCore"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
