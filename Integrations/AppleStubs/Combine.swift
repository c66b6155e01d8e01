// Interface stub of Apple's Combine, written from its Swift interface (iOS 17/18 SDK): only what
// GBGBridge's BridgeHost and SwiftUI's StateObject need. Never shipped; see README.md.

/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {}

/// A type that publishes a property marked with an attribute.
@propertyWrapper
public struct Published<Value> {
    public init(wrappedValue: Value) { fatalError("stub") }
    public var wrappedValue: Value {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}
