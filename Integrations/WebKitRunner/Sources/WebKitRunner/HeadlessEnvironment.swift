import Glibc

/// The environment `--headless` sets before GTK starts (WebKit's child processes inherit it).
///
/// Why: GDK must use the private Xvfb (X11, not a Wayland session the host may run in).
/// What else WebKit needs to be reliable here is listed in `settings`, each with its reason.
enum HeadlessEnvironment {
    static let settings: [(name: String, value: String, reason: String)] = [
        ("GDK_BACKEND", "x11", "draw on the private Xvfb even inside a Wayland session"),
    ]

    static func apply(display: String) {
        setenv("DISPLAY", display, 1)
        for setting in settings {
            setenv(setting.name, setting.value, 1)
        }
    }
}
