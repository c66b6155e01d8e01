import Testing
import SocketSupport

@Suite struct SocketNameTests {
    @Test func sanitisingKeepsOnlySafeCharacters() {
        #expect(SocketName.sanitise("My App/ünïcode:test") == "My_App_n_code_test")
        #expect(SocketName.sanitise("com.example.app-2_x") == "com.example.app-2_x")
        #expect(SocketName.sanitise(".hidden") == "_hidden")
        #expect(SocketName.sanitise("../../etc/passwd") == "_._.._etc_passwd")
        #expect(SocketName.sanitise("") == "host")
        #expect(SocketName.sanitise("日本") == "_")
        let long = SocketName.sanitise(String(repeating: "n", count: 200))
        #expect(long.count == SocketName.maximumNameLength)
    }

    @Test func fileNameRoundTrips() {
        let cases: [(String, Int32)] = [
            ("Safari Host", 4242), ("com.example.app", 1), ("a", Int32.max), ("x-y_z.1", 77),
            (String(repeating: "q", count: 99), 123),
        ]
        for (raw, pid) in cases {
            let name = SocketName(name: raw, pid: pid)
            #expect(name.fileName == "\(SocketName.sanitise(raw)).\(pid).sock")
            let parsed = SocketName(fileName: name.fileName)
            #expect(parsed == name)
            #expect(parsed?.name == SocketName.sanitise(raw))
            #expect(parsed?.pid == pid)
        }
        #expect(SocketName(fileName: "com.example.app.42.sock") == SocketName(name: "com.example.app", pid: 42))
    }

    @Test func foreignFileNamesDoNotParse() {
        for fileName in [
            "foo.sock", "foo.abc.sock", "foo.12", ".12.sock", "a b.1.sock", "x.0.sock",
            "x.99999999999.sock", "x.-5.sock", "x.12.sock.tmp", "é.1.sock", ".hidden.3.sock", "",
        ] {
            #expect(SocketName(fileName: fileName) == nil, "\(fileName) should not parse")
        }
    }
}
