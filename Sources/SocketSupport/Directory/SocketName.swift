/// The file name of one host's socket, `<sanitised-name>.<pid>.sock`, so a person
/// listing the directory can tell hosts apart and a client can show which is which.
///
/// The name keeps only `[A-Za-z0-9._-]`; every run of other characters becomes one
/// `_`, a leading `.` becomes `_` (no hidden files), an empty name becomes `host`,
/// and it is cut to `maximumNameLength` bytes so the path fits in `sun_path`.
public struct SocketName: Sendable, Hashable, CustomStringConvertible {
    /// The sanitised host name.
    public let name: String
    /// The host's process id.
    public let pid: Int32

    /// The longest sanitised name kept.
    public static let maximumNameLength = 40
    /// The file-name suffix of every inspector socket.
    public static let fileExtension = ".sock"
    /// The longest possible file name: name, ".", a 10-digit pid, ".sock".
    public static let maximumFileNameLength = maximumNameLength + 1 + 10 + fileExtension.utf8.count

    /// Names the socket of host `name` (sanitised here) running as process `pid`.
    public init(name: String, pid: Int32) {
        self.name = Self.sanitise(name)
        self.pid = pid
    }

    /// Parses a file name produced by `fileName`: nil unless it ends in `.sock`, the
    /// part before that ends in `.<decimal pid>`, and the rest is a non-empty name made
    /// only of allowed characters. Names may themselves contain dots.
    public init?(fileName: String) {
        let bytes = Array(fileName.utf8)
        let suffix = Array(Self.fileExtension.utf8)
        guard bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        let stem = bytes.dropLast(suffix.count)
        guard let dot = stem.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let nameBytes = stem[stem.startIndex..<dot]
        let pidBytes = stem[(dot + 1)...]
        guard !nameBytes.isEmpty, nameBytes.count <= Self.maximumNameLength,
              nameBytes.allSatisfy(Self.isAllowed), nameBytes.first != UInt8(ascii: "."),
              !pidBytes.isEmpty, pidBytes.count <= 10,
              pidBytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let pid = Int32(String(decoding: pidBytes, as: UTF8.self)), pid > 0
        else { return nil }
        self.name = String(decoding: nameBytes, as: UTF8.self)
        self.pid = pid
    }

    /// `<name>.<pid>.sock`.
    public var fileName: String {
        "\(name).\(pid)\(Self.fileExtension)"
    }

    /// "<name> (pid <pid>)", for lists shown to a person.
    public var description: String {
        "\(name) (pid \(pid))"
    }

    /// Reduces `raw` to a safe, readable file-name component (see the type's summary).
    public static func sanitise(_ raw: String) -> String {
        var result: [UInt8] = []
        var replacing = false
        for scalar in raw.unicodeScalars {
            if scalar.isASCII, isAllowed(UInt8(scalar.value)) {
                result.append(UInt8(scalar.value))
                replacing = false
            } else if !replacing {
                result.append(UInt8(ascii: "_"))
                replacing = true
            }
            if result.count >= maximumNameLength { break }
        }
        if result.first == UInt8(ascii: ".") {
            result[0] = UInt8(ascii: "_")
        }
        if result.isEmpty {
            return "host"
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
