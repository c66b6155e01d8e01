// Interface stub of Apple's UIKit, written from its headers (UIResponder.h, UIView.h,
// UIWindow.h, UIScene.h, UIWindowScene.h, UIApplication.h, UIViewController.h). Every class
// there is NS_SWIFT_UI_ACTOR, so @MainActor here. Never shipped; see README.md.
@_exported import Foundation

@MainActor
open class UIResponder: NSObject {}

@MainActor
open class UIView: UIResponder {
    public override init() { fatalError("stub") }
    open var subviews: [UIView] { fatalError("stub") }
    open var window: UIWindow? { fatalError("stub") }
    open func addSubview(_ view: UIView) { fatalError("stub") }
}

@MainActor
open class UIWindow: UIView {}

@MainActor
open class UIScene: UIResponder {}

@MainActor
open class UIWindowScene: UIScene {
    open var windows: [UIWindow] { fatalError("stub") }
}

@MainActor
open class UIApplication: UIResponder {
    open class var shared: UIApplication { fatalError("stub") }
    open var connectedScenes: Set<UIScene> { fatalError("stub") }
}

@MainActor
open class UIViewController: UIResponder {
    public override init() { fatalError("stub") }
    /// `UIViewController.h`: `@property(null_resettable, nonatomic, strong) UIView *view;`
    open var view: UIView! {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    open func viewDidLoad() { fatalError("stub") }
}
