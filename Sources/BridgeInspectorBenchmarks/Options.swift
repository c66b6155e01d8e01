import Foundation

/// What to run and how much of it; see `usage`.
struct Options {
    enum Mode: String {
        case full, quick, smoke
    }

    var mode = Mode.full
    var json = false
    /// Messages per throughput run.
    var messages = 100_000
    /// Throughput runs per setup (alternated; the median is reported).
    var runs = 5
    /// Messages in the long stalled-client run.
    var longMessages = 1_000_000
    /// Messages in the latency run, and their rate.
    var latencyMessages = 20_000
    var latencyRate = 1_000.0
    var latencyWarmup = 500
    /// Bytes of the large message, and how many times it is sent.
    var payloadBytes = 10 * 1024 * 1024
    var payloadRuns = 3
    /// Messages in the TUI's log, renders per figure, runs per filter.
    var tuiMessages = 1_000_000
    var renders = 50
    var filterRuns = 3
    /// Cycles of the key-under-load figure (each a tenth of a second of traffic).
    var keyCycles = 200
    /// Scale of the attach-under-load logs (1: a 30 MiB log of 16 KB messages, and a full log of
    /// 10,000 messages of 256 bytes).
    var attachScale = 1.0
    /// Messages of each kind per adapter-cost run, runs per setup, and polls timed.
    var adapterMessages = 20_000
    var adapterRuns = 5
    var pollCalls = 100_000
    /// `--adapter-only`: only the native-vs-public-API figures (a minute or two).
    var adapterOnly = false
    /// `--large-only`: only the large message's figures and the 30 MiB snapshot's decode (a minute).
    var largeOnly = false
    /// `--tui-only`: only the TUI's and the client's decoding figures (seconds to a minute).
    var tuiOnly = false
    /// `--webkit-only`: only the figures in real WebKit (needs the WebKit runner built).
    var webKitOnly = false
    /// `--sessions-only`: only the sessions-as-tests figures (read, diff, redact, rerun).
    var sessionsOnly = false
    /// Messages in the sessions-as-tests recording.
    var sessionMessages = 100_000
    /// Messages each way per WebKit run, and runs per setup.
    var webKitMessages = 2_000
    var webKitRuns = 5
    /// `--instructions`: only the instructions per message, counted under valgrind's callgrind.
    var instructions = false
    /// Messages of the smaller callgrind run of each path (the larger runs twice as many).
    var instructionMessages = 2_000
    /// The valgrind to run (default: `valgrind` on `PATH`).
    var valgrindPath: String?
    /// Where to keep the callgrind outputs (default: a scratch directory, removed at the end).
    var callgrindDirectory: String?
    /// `--instructions-from DIR`: the instruction counts read from outputs kept earlier, without
    /// running valgrind.
    var instructionsFrom: String?
    /// Hidden, what `--instructions` runs under valgrind: one path's workload, feeding this
    /// many of `2 × instructionMessages` messages, and nothing else.
    var instructionWorkload: InstructionPath?
    var instructionsFeed = 0

    static let usage = """
        usage: bridge-inspector-bench [--json] [--quick | --smoke] [overrides]

          --json                 print one JSON object on stdout (the table goes to stderr)
          --quick                smaller counts (about a minute)
          --smoke                a tiny workload (seconds), for the test suite; figures mean nothing
          --messages N           messages per host-throughput run (default 100000)
          --runs N               runs per setup, alternated, median reported (default 5)
          --long-messages N      messages in the long stalled-client run (default 1000000)
          --latency-messages N   paced messages in the latency run (default 20000)
          --rate N               messages per second in the latency run (default 1000)
          --payload-mb N         size of the large message in MiB (default 10)
          --tui-messages N       messages in the TUI's log (default 1000000)
          --adapter-messages N   messages of each kind per native/public-API run (default 20000)
          --adapter-only         only the native vs GBGBridge public-API figures
          --tui-only             only the TUI's figures and the client's frame decoding
          --large-only           only the large message's figures (its journey, stage by stage) and
                                 the 30 MiB snapshot's first decode
          --payload-runs N       times the large message is sent (default 3)
          --webkit-only          only the figures in real WebKit, with and without the page script
                                 (needs the runner: swift build -c release --package-path Integrations/WebKitRunner)
          --webkit-messages N    messages each way per WebKit run (default 2000)
          --sessions-only        only the sessions-as-tests figures: read, diff, redact a recording,
                                 and rerun it into a real host (needs bridge-inspector built:
                                 swift build -c release)
          --session-messages N   messages in that recording (default 100000)
          --instructions         only the instructions per message of each per-message path (the
                                 host's receive with and without the agent, the agent's and the
                                 client's threads, the client's decoding, the TUI's ingest),
                                 counted by valgrind's callgrind: the same on every run, unlike
                                 timings (a few minutes; needs valgrind: apt-get install valgrind)
          --instruction-messages N  messages of the smaller callgrind run of each path; the larger
                                 runs 2N and per message = difference / N (default 2000)
          --valgrind PATH        the valgrind to run (default: valgrind on PATH)
          --callgrind-dir DIR    keep the callgrind outputs in DIR (for callgrind_annotate)
          --instructions-from DIR  report the counts from outputs kept with --callgrind-dir,
                                 without running valgrind again
          --help                 this text
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        // The mode first, so that explicit counts override it wherever they are given.
        if arguments.contains("--smoke") { options.apply(.smoke) } else if arguments.contains("--quick") { options.apply(.quick) }
        var index = 0
        func value(_ name: String) throws -> Double {
            index += 1
            guard index < arguments.count, let number = Double(arguments[index]), number > 0 else {
                throw BenchError("\(name) needs a positive number\n\n\(usage)")
            }
            return number
        }
        func text(_ name: String) throws -> String {
            index += 1
            guard index < arguments.count, !arguments[index].isEmpty else { throw BenchError("\(name) needs a value\n\n\(usage)") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--json": options.json = true
            case "--quick", "--smoke": break
            case "--messages": options.messages = Int(try value("--messages"))
            case "--runs": options.runs = Int(try value("--runs"))
            case "--long-messages": options.longMessages = Int(try value("--long-messages"))
            case "--latency-messages": options.latencyMessages = Int(try value("--latency-messages"))
            case "--rate": options.latencyRate = try value("--rate")
            case "--payload-mb": options.payloadBytes = Int(try value("--payload-mb") * 1024 * 1024)
            case "--tui-messages": options.tuiMessages = Int(try value("--tui-messages"))
            case "--adapter-messages": options.adapterMessages = Int(try value("--adapter-messages"))
            case "--adapter-only": options.adapterOnly = true
            case "--tui-only": options.tuiOnly = true
            case "--large-only": options.largeOnly = true
            case "--payload-runs": options.payloadRuns = Int(try value("--payload-runs"))
            case "--webkit-only": options.webKitOnly = true
            case "--webkit-messages": options.webKitMessages = Int(try value("--webkit-messages"))
            case "--sessions-only": options.sessionsOnly = true
            case "--session-messages": options.sessionMessages = Int(try value("--session-messages"))
            case "--instructions": options.instructions = true
            case "--instruction-messages": options.instructionMessages = Int(try value("--instruction-messages"))
            case "--valgrind": options.valgrindPath = try text("--valgrind")
            case "--callgrind-dir": options.callgrindDirectory = try text("--callgrind-dir")
            case "--instructions-from": options.instructionsFrom = try text("--instructions-from")
            case "--instructions-workload":
                let name = try text("--instructions-workload")
                guard let path = InstructionPath(rawValue: name) else {
                    throw BenchError("--instructions-workload: no path \(name) (\(InstructionPath.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                options.instructionWorkload = path
            case "--instructions-feed": options.instructionsFeed = Int(try value("--instructions-feed"))
            case "--help", "-h": throw BenchError(usage)
            default: throw BenchError("unknown option \(arguments[index])\n\n\(usage)")
            }
            index += 1
        }
        return options
    }

    mutating func apply(_ mode: Mode) {
        self.mode = mode
        switch mode {
        case .full:
            break
        case .quick:
            messages = 50_000
            runs = 3
            longMessages = 200_000
            latencyMessages = 5_000
            latencyWarmup = 200
            payloadRuns = 2
            tuiMessages = 200_000
            renders = 30
            filterRuns = 2
            keyCycles = 100
            adapterMessages = 5_000
            adapterRuns = 3
            pollCalls = 20_000
            webKitMessages = 500
            webKitRuns = 3
            sessionMessages = 20_000
        case .smoke:
            messages = 400
            runs = 1
            longMessages = 1_000
            latencyMessages = 100
            latencyWarmup = 10
            payloadBytes = 64 * 1024
            attachScale = 0.02
            payloadRuns = 1
            tuiMessages = 2_000
            renders = 3
            filterRuns = 1
            keyCycles = 5
            adapterMessages = 200
            adapterRuns = 1
            pollCalls = 1_000
            webKitMessages = 50
            webKitRuns = 1
            sessionMessages = 400
            instructionMessages = 20
        }
    }
}
