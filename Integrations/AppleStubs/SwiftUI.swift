// Interface stub of Apple's SwiftUI, written from its Swift interface (iOS 17/18 SDK): the
// declarations the app snippets in the docs and the inspector's view modifier use. `View` and
// `ViewModifier` are `@MainActor @preconcurrency` there and here. Never shipped; see README.md.
@_exported import Combine
@_exported import Foundation

@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("stub") }
}

@resultBuilder
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { fatalError("stub") }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { fatalError("stub") }
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> { fatalError("stub") }
    public static func buildBlock<C0: View, C1: View, C2: View>(_ c0: C0, _ c1: C1, _ c2: C2) -> TupleView<(C0, C1, C2)> { fatalError("stub") }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { fatalError("stub") }
}

public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError("stub") }
}

public struct TupleView<T>: View {
    public var body: Never { fatalError("stub") }
}

public struct Text: View {
    public init(_ content: String) { fatalError("stub") }
    public var body: Never { fatalError("stub") }
}

public struct VStack<Content: View>: View {
    public init(@ViewBuilder content: () -> Content) { fatalError("stub") }
    public var body: Never { fatalError("stub") }
}

public struct NavigationStack<Root: View>: View {
    public init(@ViewBuilder root: () -> Root) { fatalError("stub") }
    public var body: Never { fatalError("stub") }
}

@MainActor @preconcurrency
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    public var body: Never { fatalError("stub") }
}

public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError("stub") }
}

extension View {
    public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError("stub") }
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { modifier(_AppearanceModifier()) }
    public func onDisappear(perform action: (() -> Void)? = nil) -> some View { modifier(_AppearanceModifier()) }
    public func frame(height: CGFloat? = nil) -> some View { modifier(_AppearanceModifier()) }
    public func navigationTitle(_ title: String) -> some View { modifier(_AppearanceModifier()) }
}

public struct _AppearanceModifier: ViewModifier {
    public func body(content: Content) -> Never { fatalError("stub") }
}

public protocol DynamicProperty {}

@propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { fatalError("stub") }
    public var wrappedValue: Value {
        get { fatalError("stub") }
        nonmutating set { fatalError("stub") }
    }
}

@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { fatalError("stub") }
    @MainActor @preconcurrency public var wrappedValue: ObjectType { fatalError("stub") }
}

@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    public init(wrappedValue: ObjectType) { fatalError("stub") }
    @MainActor @preconcurrency public var wrappedValue: ObjectType { fatalError("stub") }
}
