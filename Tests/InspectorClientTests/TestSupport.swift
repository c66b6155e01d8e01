import BridgeCore
import Foundation
import InspectorClient
import TestSupport
@testable import InspectorProtocol

/// The client's tests build traffic records as an agent sends them.
typealias Fixture = TrafficFixture
