/// The runner's command-line options: deliberately few, since a person rarely starts the runner
/// by hand (`bridge-inspector host --webkit` does).
public struct RunnerOptions: Equatable, Sendable {
    /// Start a private Xvfb and show the window there instead of on `$DISPLAY`.
    public var headless = false
    /// The window's size in pixels.
    public var width = 1280
    public var height = 800

    public init(headless: Bool = false, width: Int = 1280, height: Int = 800) {
        self.headless = headless
        self.width = width
        self.height = height
    }

    /// What the arguments ask for.
    public enum Parsed: Equatable, Sendable {
        case run(RunnerOptions)
        case help
    }

    /// Parses the arguments (without the program name). `--width N` and `--width=N` both work.
    public static func parse(_ arguments: [String]) -> Result<Parsed, OptionsError> {
        var options = RunnerOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inlineValue: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "-h", "--help":
                return .success(.help)
            case "--headless":
                guard inlineValue == nil else { return .failure(.init("--headless takes no value")) }
                options.headless = true
            case "--width", "--height":
                let text: String
                if let inlineValue {
                    text = inlineValue
                } else if index < arguments.count {
                    text = arguments[index]
                    index += 1
                } else {
                    return .failure(.init("\(name) needs a number of pixels"))
                }
                guard let pixels = Int(text), (100...16384).contains(pixels) else {
                    return .failure(.init("\(name) needs a number of pixels from 100 to 16384, not \"\(text)\""))
                }
                if name == "--width" { options.width = pixels } else { options.height = pixels }
            default:
                return .failure(.init("unknown option \"\(argument)\" (see --help)"))
            }
        }
        return .success(.run(options))
    }

    public static let usage = """
        bridge-inspector-webkit: a real WebKitGTK web view for bridge-inspector.

        It is started by `bridge-inspector host --webkit`, which talks to it with one JSON object
        per line: commands on its standard input (start, evaluate, query, load, reload,
        destroyView, terminateWebProcess, quit), events on its standard output (started, post,
        evaluated, load, ...). Standard error is free text for people. It exits when its standard
        input ends or on {"kind":"quit"}. You rarely run it by hand; to try it:
          (echo '{"kind":"start","handler":"gbgBridge","uri":"file:///path/to/journey/index.html"}'; sleep 10) \\
            | bridge-inspector-webkit --headless

        Options:
          --headless        start a private Xvfb for the window (needs Xvfb); without it the
                            window opens on $DISPLAY (a desktop session)
          --width N         window width in pixels (default 1280)
          --height N        window height in pixels (default 800)
          -h, --help        show this text

        """
}

/// A bad command line; `text` says what is wrong.
public struct OptionsError: Error, Equatable, Sendable {
    public var text: String
    public init(_ text: String) { self.text = text }
}
