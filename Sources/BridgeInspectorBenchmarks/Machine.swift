import Foundation

/// The machine the figures come from.
struct Machine {
    var cpuModel: String
    var cores: Int
    var memoryBytes: UInt64
    var system: String
    var kernel: String

    static func current() -> Machine {
        var model = "unknown CPU"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var system = ProcessInfo.processInfo.operatingSystemVersionString
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") })
        {
            system = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var kernel = ""
        var names = utsname()
        if uname(&names) == 0 {
            let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            kernel = "\(release) \(machine)"
        }
        return Machine(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory, system: system, kernel: kernel)
    }

    var summary: String {
        "\(cpuModel), \(cores) cores, \(String(format: "%.1f", Double(memoryBytes) / 1_073_741_824)) GiB, \(system), kernel \(kernel)"
    }
}
