import SocketSupport
import Testing

/// The one rule for a directory whose contents are trusted (the socket directory, the
/// inspector's state directory), judged from a status so the owner check needs no other user.
@Suite("Private directory rule")
struct PrivateDirectoryTests {
    @Test("Ours with every owner bit and none forbidden is trusted; otherwise the problem is named")
    func judged() {
        let me: UInt32 = 1000
        func problem(_ status: PrivateDirectory.Status, forbidden: UInt32 = 0o077) -> PrivateDirectory.Problem? {
            PrivateDirectory.problem(with: status, userID: me, forbiddenModeBits: forbidden)
        }
        #expect(problem(.init(owner: me, mode: 0o700)) == nil)
        #expect(problem(.init(owner: 4242, mode: 0o700)) == .wrongOwner(owner: 4242, expected: me))
        #expect(problem(.init(owner: me, mode: 0o755)) == .insecureMode(mode: 0o755))
        #expect(problem(.init(owner: me, mode: 0o755), forbidden: 0o022) == nil)
        #expect(problem(.init(owner: me, mode: 0o1777), forbidden: 0o022) == .insecureMode(mode: 0o777))
        #expect(problem(.init(owner: me, mode: 0o500)) == .insecureMode(mode: 0o500))
        #expect(problem(.init(notADirectory: "a regular file", owner: me, mode: 0o700)) == .notADirectory(kind: "a regular file"))
        #expect(problem(.init(notADirectory: "a symbolic link", isSymbolicLink: true, owner: me, mode: 0o777)) == .symbolicLink)
        #expect(PrivateDirectory.octal(0o7) == "0007" && PrivateDirectory.octal(0o755) == "0755")
    }
}
