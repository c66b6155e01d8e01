/// The environment variables that steer where inspector sockets live.
///
/// Both sides read them the same way: `BRIDGE_INSPECTOR_SOCKET` names one socket
/// explicitly (like `SSH_AUTH_SOCK` or `TMUX`), and `BRIDGE_INSPECTOR_SOCKET_DIR` or (on Linux)
/// `XDG_RUNTIME_DIR` chooses the per-user directory (see `SocketDirectoryChoice`).
public enum SocketEnvironment {
    /// Names one socket path explicitly; an agent binds there and a client attaches
    /// there instead of using the per-user directory.
    public static let socketVariable = "BRIDGE_INSPECTOR_SOCKET"

    /// Names the socket directory on every platform, overriding the default (see
    /// `SocketDirectoryChoice`); set it to the same absolute path on both sides, e.g. in the
    /// Xcode scheme of an app run in the iOS Simulator and in the Mac shell.
    public static let directoryVariable = "BRIDGE_INSPECTOR_SOCKET_DIR"

    /// The per-user runtime directory (systemd sets it to `/run/user/<uid>`).
    public static let runtimeDirectoryVariable = "XDG_RUNTIME_DIR"

    /// The value of the process environment variable `name`, or nil when it is unset
    /// or empty (an empty value is treated as unset, as the XDG specification does).
    public static func value(of name: String) -> String? {
        guard let value = SystemCalls.environmentValue(name), !value.isEmpty else { return nil }
        return value
    }

    /// The explicitly named socket path: `option` (a command-line flag) wins, then
    /// `BRIDGE_INSPECTOR_SOCKET` from `environment`; nil when neither is given or both are empty.
    public static func explicitSocketPath(option: String?, environment: [String: String]) -> String? {
        if let option, !option.isEmpty { return option }
        if let value = environment[socketVariable], !value.isEmpty { return value }
        return nil
    }

    /// `explicitSocketPath(option:environment:)` reading the process environment.
    public static func explicitSocketPath(option: String? = nil) -> String? {
        if let option, !option.isEmpty { return option }
        return value(of: socketVariable)
    }
}
