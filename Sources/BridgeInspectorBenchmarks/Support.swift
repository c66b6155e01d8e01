import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Small tools the benchmarks share: a monotonic clock, memory readings, statistics and a
// lock-protected box for handing values between threads.

/// Nanoseconds on the monotonic clock (comparable across threads).
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Seconds between two monotonic readings.
func seconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / 1e9
}

/// Milliseconds between two monotonic readings.
func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end &- start) / 1e6
}

/// The median of some values (0 when there are none).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Process memory as the kernel and the allocator see it.
enum MemoryUsage {
    /// Resident set size in bytes, from `/proc/self/statm` (0 where that file does not exist).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Resident bytes after giving freed heap pages back to the kernel: what the process
    /// really holds.
    static func settledResidentBytes() -> Int {
        trim()
        return residentBytes()
    }

    /// Gives freed memory back to the kernel (glibc's `malloc_trim`, looked up at run time
    /// because Swift's Glibc module does not import `malloc.h`).
    static func trim() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

/// A short private directory for sockets and files (socket paths must stay short).
final class ScratchDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/bib-XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a temporary directory in /tmp")
        }
        path = String(cString: result)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A benchmark that could not run, with the reason.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits on the main actor, without blocking it, until `condition` holds or `timeout` passes.
/// Returns whether the condition held.
@MainActor
func waitUntil(timeout: Double, pollMicroseconds: Int = 200, _ condition: () -> Bool) async -> Bool {
    let deadline = monotonicNanoseconds() + UInt64(timeout * 1e9)
    while !condition() {
        if monotonicNanoseconds() > deadline { return false }
        try? await Task.sleep(for: .microseconds(pollMicroseconds))
    }
    return true
}

/// Writes all of `bytes` to a blocking descriptor.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += written
    }
    return true
}

/// Nanoseconds of CPU time the calling thread has used.
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// This thread's minor page faults so far: the fresh memory it touched (`getrusage`,
/// `RUSAGE_THREAD` on Linux, which Glibc's Swift module does not name); the whole process's
/// elsewhere.
func threadMinorPageFaults() -> Int {
    threadResourceUsage().ru_minflt
}

/// The calling thread's `getrusage` (`RUSAGE_THREAD` on Linux, which Glibc's Swift module does not
/// name); elsewhere the whole process's, which the figures built on it then stand for.
func threadResourceUsage() -> rusage {
    var usage = rusage()
    #if os(Linux)
    getrusage(1, &usage)  // RUSAGE_THREAD
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// The calling thread's CPU milliseconds and minor page faults (the fresh memory it touched)
/// while `body` runs: what a step costs, less disturbed by a busy machine than wall time.
func threadCost(_ body: () throws -> Void) rethrows -> (ms: Double, faults: Int) {
    let faultsStart = threadMinorPageFaults()
    let start = threadCPUNanoseconds()
    try body()
    return (Double(threadCPUNanoseconds() - start) / 1e6, threadMinorPageFaults() - faultsStart)
}

/// Hands `bytes` to `body` in pieces of at most `size` bytes, in order, as reads from a socket
/// deliver a long line.
func inReads(of size: Int, _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) {
    bytes.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
    }
}

/// Nanoseconds of CPU time the whole process has used (user + system, all threads).
func processCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The 1-minute load average (from `/proc/loadavg`), or -1 where it cannot be read.
func loadAverage() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
        let first = text.split(separator: " ").first, let value = Double(first)
    else { return -1 }
    return value
}

/// The machine-wide CPU counters of `/proc/stat` (in clock ticks): all time, and time stolen
/// by the hypervisor (a virtual CPU that was ready to run but not running).
struct CPUTicks {
    var total: UInt64 = 0
    var steal: UInt64 = 0
    var idle: UInt64 = 0

    static func now() -> CPUTicks {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return CPUTicks() }
        let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard fields.count >= 8 else { return CPUTicks() }
        // user nice system idle iowait irq softirq steal (guest time is already in user).
        return CPUTicks(total: fields[0..<8].reduce(0, +), steal: fields[7], idle: fields[3] + fields[4])
    }

    /// Percent of the time between `self` and `later` that was stolen, and that was idle.
    func percentages(until later: CPUTicks) -> (steal: Double, idle: Double) {
        let total = Double(later.total &- total)
        guard total > 0 else { return (0, 0) }
        return (Double(later.steal &- steal) / total * 100, Double(later.idle &- idle) / total * 100)
    }
}

/// Calls `send(index)` for `count` messages spaced evenly at `rate` per second and returns
/// when each was sent (``monotonicNanoseconds()`` taken just before the call), so that the
/// inspector and the raw-socket reference are paced exactly alike.
@MainActor
func paced(_ count: Int, rate: Double, _ send: (Int) throws -> Void) async rethrows -> [UInt64] {
    var sentAt = [UInt64](repeating: 0, count: count)
    let interval = Duration.nanoseconds(Int64(1e9 / rate))
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count {
        let target = start + interval * index
        if clock.now < target { try? await Task.sleep(until: target, tolerance: .microseconds(50), clock: clock) }
        let now = monotonicNanoseconds()
        try send(index)
        sentAt[index] = now
    }
    return sentAt
}

/// The calling thread's resource usage (`getrusage`, `RUSAGE_THREAD` on Linux; the whole
/// process elsewhere): its CPU time split into user and system time, and how often it gave up
/// the CPU (waiting for input: a wake-up each) or had it taken. System time and wake-ups do not
/// show in instruction counts (callgrind counts user-space instructions only).
struct ThreadResourceUsage {
    var userNanoseconds: UInt64 = 0
    var systemNanoseconds: UInt64 = 0
    /// Voluntary context switches: the thread blocked (in `poll`, a lock) and was woken again.
    var voluntarySwitches = 0
    /// Involuntary context switches: the scheduler took the CPU from the thread.
    var involuntarySwitches = 0
    var minorPageFaults = 0

    static var current: ThreadResourceUsage {
        let usage = threadResourceUsage()
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, time.tv_usec)) * 1000 }
        return ThreadResourceUsage(
            userNanoseconds: nanoseconds(usage.ru_utime), systemNanoseconds: nanoseconds(usage.ru_stime),
            voluntarySwitches: usage.ru_nvcsw, involuntarySwitches: usage.ru_nivcsw, minorPageFaults: usage.ru_minflt)
    }

    /// What was used from `earlier` to `self`.
    func since(_ earlier: ThreadResourceUsage) -> ThreadResourceUsage {
        ThreadResourceUsage(
            userNanoseconds: userNanoseconds &- earlier.userNanoseconds, systemNanoseconds: systemNanoseconds &- earlier.systemNanoseconds,
            voluntarySwitches: voluntarySwitches - earlier.voluntarySwitches,
            involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches, minorPageFaults: minorPageFaults - earlier.minorPageFaults)
    }
}

/// Another thread's usage, read from `/proc/self/task/TID/` (Linux only): its CPU time
/// (`schedstat`, in nanoseconds), that time's user and system parts (`stat`, in clock ticks,
/// 10 ms each: only a rough split over a short run) and its context switches (`status`).
/// For a thread the benchmark cannot sample from inside, such as the agent's.
struct OtherThreadUsage {
    var cpuNanoseconds: UInt64 = 0
    var userTicks: UInt64 = 0
    var systemTicks: UInt64 = 0
    var voluntarySwitches = 0
    var involuntarySwitches = 0

    /// The ids of this process's threads whose name (as the kernel keeps it: its first 15
    /// bytes) is `name`'s start. Taken before and after a thread starts, the difference is it.
    static func threadIds(named name: String) -> Set<Int> {
        let wanted = String(decoding: Array(name.utf8.prefix(15)), as: UTF8.self)
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [] }
        return Set(tasks.compactMap { task -> Int? in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == wanted ? Int(task) : nil
        })
    }

    /// The usage of thread `id` so far, or nil when it cannot be read (the thread ended).
    static func of(threadId id: Int) -> OtherThreadUsage? {
        let base = "/proc/self/task/\(id)/"
        guard let schedstat = try? String(contentsOfFile: base + "schedstat", encoding: .utf8),
            let stat = try? String(contentsOfFile: base + "stat", encoding: .utf8),
            let status = try? String(contentsOfFile: base + "status", encoding: .utf8),
            let cpu = schedstat.split(separator: " ").first.flatMap({ UInt64($0) }),
            let closing = stat.lastIndex(of: ")")
        else { return nil }
        // After the name in parentheses: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        func count(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") }
            return line.flatMap { Int($0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)) } ?? 0
        }
        return OtherThreadUsage(
            cpuNanoseconds: cpu, userTicks: user, systemTicks: system, voluntarySwitches: count("voluntary_ctxt_switches"),
            involuntarySwitches: count("nonvoluntary_ctxt_switches"))
    }

    /// What was used from `earlier` to `self`.
    func since(_ earlier: OtherThreadUsage) -> OtherThreadUsage {
        OtherThreadUsage(
            cpuNanoseconds: cpuNanoseconds &- earlier.cpuNanoseconds, userTicks: userTicks &- earlier.userTicks,
            systemTicks: systemTicks &- earlier.systemTicks, voluntarySwitches: voluntarySwitches - earlier.voluntarySwitches,
            involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches)
    }

    /// The share of the CPU time spent in the kernel, by the tick counts (nil with no ticks).
    var systemShare: Double? {
        let ticks = userTicks + systemTicks
        return ticks == 0 ? nil : Double(systemTicks) / Double(ticks)
    }
}
