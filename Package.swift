// swift-tools-version: 6.0
//
// bridge-inspector: a portable GBGBridge host, an inspector agent any host embeds,
// and an interactive terminal debugger that attaches to it.
//
// Modules, lowest first (each depends only on the ones above it in this list):
//   ThreadSupport       the one lock type (Locked), the one way to run blocking work on a thread of its own, and the one way to start a child process (ChildProcess)
//   BridgeCore          the documented GBGBridge host behaviour (no I/O, no terminal), host.ready, BoundedMap
//   FilterLanguage      the filter language (lexer, parser, text matching, action patterns) and the breakpoint's
//                       in-flight message filter, shared by the agent and the client
//   CSocketShims        C shims for peer credentials and sun_path (glibc needs _GNU_SOURCE)
//   SocketSupport       Unix-socket directory policy, listen/connect, non-blocking I/O helpers (folders by concern)
//   InspectorProtocol   the wire format between agent and client (frames, handshake, events, commands)
//   InspectorAgent      embedded in a host: publishes state and traffic, carries out commands
//   GBGBridgeInspector  the agent for apps that embed GBG's closed GBGBridge: public-API adapter, page script
//   InspectorClient     attaches to an agent: handshake, snapshot, live state, commands; the log filter (the
//                       FilterLanguage on log rows) and time formatting the TUI and the scripting commands share
//   HostDiagnosis       what an inspector concludes from a host's state: the doctor and the statistics
//   JourneySimulation   host profiles, journey scenarios and the simulated web journey
//   JourneyWebSocket    a real web journey in a browser: serves its files, injects the bridge bootstrap, WebSocket transport (SwiftNIO)
//   JourneyWebKit       a real web journey in a real WebKit web view: drives `bridge-inspector-webkit` (Integrations/WebKitRunner,
//                       a package of its own, so nothing here needs WebKit to build) over a pipe, and is the host's transport
//   TerminalUI          cell buffer, text width, sanitising of untrusted text (pure, testable)
//   CNcurses            the system ncursesw library with Swift-6-safe accessors
//   CursesBackend       draws a TerminalUI buffer with ncurses and reads keys
//   InspectorTUI        the inspector's state, update and rendering into a buffer (no curses): Model/ Overlays/ Drawing/
//   BridgeInspectorCLI  the `bridge-inspector` command: Host/ Demo/ Interactive/ Scripting/ Support/
//   BridgeInspectorBenchmarks  `bridge-inspector-bench`: figures for docs/performance.md (not a test)
// For tests only, under Tests/:
//   TestSupport         what test targets share: temporary directories, bounded waits, ManualClock, processes
//   AgentTesting        EmbeddedAgent (the agent's core driven in memory with a clock the test moves),
//                       LiveAgent (a host with a running agent) and StateDigest
// docs/architecture.md says what each module does, where things live in it, and how files and errors are named.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "bridge-inspector",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "BridgeCore", targets: ["BridgeCore"]),
        .library(name: "InspectorAgent", targets: ["InspectorAgent"]),
        .library(name: "GBGBridgeInspector", targets: ["GBGBridgeInspector"]),
        .executable(name: "bridge-inspector", targets: ["BridgeInspectorCLI"]),
        .executable(name: "bridge-inspector-bench", targets: ["BridgeInspectorBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "ThreadSupport", swiftSettings: strict),
        .testTarget(name: "ThreadSupportTests", dependencies: ["ThreadSupport", "TestSupport"], swiftSettings: strict),
        .target(name: "BridgeCore", dependencies: ["ThreadSupport"], swiftSettings: strict),
        .testTarget(name: "BridgeCoreTests", dependencies: ["BridgeCore", "TestSupport", "ThreadSupport"], swiftSettings: strict),
        .target(name: "FilterLanguage", dependencies: ["BridgeCore"], swiftSettings: strict),
        .testTarget(
            name: "FilterLanguageTests",
            dependencies: ["FilterLanguage", "BridgeCore", "InspectorClient", "InspectorProtocol", "TestSupport"],
            swiftSettings: strict),

        .target(name: "CSocketShims"),
        .target(name: "SocketSupport", dependencies: ["CSocketShims", "ThreadSupport"], swiftSettings: strict),
        .testTarget(name: "SocketSupportTests", dependencies: ["SocketSupport", "TestSupport"], swiftSettings: strict),
        // What test targets share: temporary directories, waiting for a condition, a clock the
        // test moves (ManualClock), socket files, spawned processes, and running one test again
        // in a process of its own.
        .target(name: "TestSupport", dependencies: ["BridgeCore", "InspectorProtocol", "SocketSupport", "ThreadSupport"], path: "Tests/TestSupport", swiftSettings: strict),

        .target(name: "InspectorProtocol", dependencies: ["BridgeCore"], swiftSettings: strict),
        .testTarget(name: "InspectorProtocolTests", dependencies: ["InspectorProtocol", "BridgeCore", "TestSupport"], swiftSettings: strict),
        .target(
            name: "InspectorAgent",
            dependencies: [
                "BridgeCore", "FilterLanguage", "InspectorProtocol", "SocketSupport", "ThreadSupport",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict),
        .target(name: "GBGBridgeInspector", dependencies: ["BridgeCore", "InspectorProtocol", "InspectorAgent"], swiftSettings: strict),
        .testTarget(
            name: "GBGBridgeInspectorTests",
            dependencies: ["GBGBridgeInspector", "AgentTesting", "InspectorAgent", "InspectorClient", "InspectorProtocol", "BridgeCore", "TestSupport"],
            swiftSettings: strict),
        .target(
            name: "InspectorClient",
            dependencies: [
                "BridgeCore", "FilterLanguage", "InspectorProtocol", "SocketSupport", .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict),
        // The inspector's testing library, for any test target, as swift-nio ships NIOEmbedded:
        // the agent's core driven in memory (EmbeddedAgent), a host with a running agent on a
        // private socket (LiveAgent), and what two inspector states must share (StateDigest).
        // TestSupport stays free of the agent and the client.
        .target(
            name: "AgentTesting",
            dependencies: ["InspectorAgent", "InspectorClient", "InspectorProtocol", "BridgeCore", "SocketSupport", "TestSupport"],
            path: "Tests/AgentTesting", swiftSettings: strict),
        // InspectorAgent is a fixture here, not a subject: InspectorSession and RawFrameStream are
        // tested against a live agent (AgentTesting's LiveAgent); the handshake and framing
        // themselves are tested on ClientConnectionStateMachine, without a socket.
        .testTarget(
            name: "InspectorClientTests",
            dependencies: [
                "InspectorClient", "AgentTesting", "InspectorAgent", "InspectorProtocol", "BridgeCore", "SocketSupport", "TestSupport",
                "ThreadSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "InspectorAgentTests",
            dependencies: [
                "InspectorAgent", "AgentTesting", "InspectorClient", "InspectorProtocol", "SocketSupport", "BridgeCore", "TestSupport",
                "ThreadSupport",
            ],
            swiftSettings: strict),

        .target(name: "HostDiagnosis", dependencies: ["BridgeCore", "InspectorProtocol", "InspectorClient"], swiftSettings: strict),
        .testTarget(
            name: "HostDiagnosisTests",
            dependencies: ["HostDiagnosis", "InspectorClient", "InspectorProtocol", "BridgeCore", "TestSupport"],
            swiftSettings: strict),
        .target(name: "JourneySimulation", dependencies: ["BridgeCore"], swiftSettings: strict),
        .testTarget(name: "JourneySimulationTests", dependencies: ["JourneySimulation", "BridgeCore", "TestSupport", "ThreadSupport"], swiftSettings: strict),

        .target(
            name: "JourneyWebSocket",
            dependencies: [
                "BridgeCore", "ThreadSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "JourneyWebSocketTests",
            dependencies: [
                "JourneyWebSocket", "BridgeCore", "TestSupport", "ThreadSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: strict),

        .target(name: "JourneyWebKit", dependencies: ["BridgeCore", "ThreadSupport"], swiftSettings: strict),
        .testTarget(
            name: "JourneyWebKitTests",
            dependencies: ["JourneyWebKit", "BridgeCore", "GBGBridgeInspector", "JourneySimulation", "TestSupport", "ThreadSupport"],
            swiftSettings: strict),

        .target(name: "TerminalUI", swiftSettings: strict),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"], swiftSettings: strict),
        // No pkgConfig: SwiftPM would warn that it drops ncursesw's -D flags; the shim header
        // defines what the wide-character API needs itself, and the library is linked below.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        .target(
            name: "CursesBackend",
            dependencies: ["CNcurses", "TerminalUI"],
            swiftSettings: strict,
            linkerSettings: [
                .linkedLibrary("ncursesw", .when(platforms: [.linux])),
                .linkedLibrary("ncurses", .when(platforms: [.macOS])),
            ]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "TerminalUI", "TestSupport"], swiftSettings: strict),

        .target(
            name: "InspectorTUI",
            dependencies: ["BridgeCore", "InspectorProtocol", "InspectorClient", "HostDiagnosis", "TerminalUI"],
            swiftSettings: strict),
        .testTarget(
            name: "InspectorTUITests",
            dependencies: ["InspectorTUI", "InspectorClient", "InspectorProtocol", "BridgeCore", "TerminalUI", "TestSupport"],
            swiftSettings: strict),

        .executableTarget(
            name: "BridgeInspectorCLI",
            dependencies: [
                "BridgeCore", "InspectorAgent", "GBGBridgeInspector", "InspectorClient", "InspectorProtocol", "HostDiagnosis",
                "JourneySimulation", "JourneyWebKit", "JourneyWebSocket", "SocketSupport", "ThreadSupport", "InspectorTUI", "CursesBackend",
                "TerminalUI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "BridgeInspectorBenchmarks",
            dependencies: [
                "BridgeCore", "InspectorAgent", "GBGBridgeInspector", "InspectorClient", "InspectorProtocol", "InspectorTUI", "JourneyWebKit",
                "SocketSupport", "TerminalUI", "ThreadSupport", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["AgentTesting", "BridgeCore", "GBGBridgeInspector", "HostDiagnosis", "InspectorClient", "InspectorProtocol", "JourneySimulation", "SocketSupport", "TestSupport", "ThreadSupport"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
