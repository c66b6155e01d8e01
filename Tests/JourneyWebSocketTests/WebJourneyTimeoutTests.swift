import BridgeCore
import Foundation
import TestSupport
import Testing

@testable import JourneyWebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Issue 11, point 3: connections that never finish a request, or sit idle, used to stay open
// for ever, each holding one of the host's file descriptors.
extension WebJourneyServerTests {
    @Test("slowloris: 200 connections that send half a header are closed after the request timeout; real requests are still served")
    func slowloris() async throws {
        let server = try await start(requestTimeout: .milliseconds(500))
        let port = server.port
        let token = server.token.value
        let started = ContinuousClock.now
        let (closed, took, servedMeanwhile) = try await Task.detached { () throws -> (Int, Duration, Int) in
            var sockets: [Int32] = []
            defer { sockets.forEach { close($0) } }
            for _ in 0..<200 {
                // Every receive gives up after 30 s: the bound, far above the timeout.
                let socket = try loopbackConnection(port: port, timeout: 30)
                sockets.append(socket)
                try sendAll(socket, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: a")
            }
            // While they hang, a browser's request is answered.
            let served = try rawHTTP(port: port, getRequest("/", port: port, token: token)).status
            let closed = sockets.filter { readUntilClosed($0) }.count
            return (closed, ContinuousClock.now - started, served)
        }.value
        print("slowloris: \(closed) of 200 half-sent connections closed by the server, all within \(took) of opening (request timeout 0.5 s)")
        #expect(servedMeanwhile == 200)
        #expect(closed == 200)
        let after = try await http(port: port, getRequest("/", port: port, token: token))
        #expect(after.status == 200)
        await server.stop()
    }

    @Test("idle connections are closed after the idle timeout; the bridge WebSocket is not")
    func idleConnections() async throws {
        let server = try await start(requestTimeout: .seconds(600), idleTimeout: .milliseconds(300))
        let port = server.port
        let token = server.token.value
        let page = try await TestPage.connect(port: port, origin: "http://127.0.0.1:\(port)", token: token)
        #expect(await eventually { host.isJourneyAttached })
        let started = ContinuousClock.now
        let (silentClosed, keptAliveClosed, status, took) = try await Task.detached { () throws -> (Bool, Bool, String, Duration) in
            // One connection says nothing at all; one asks for a page, keeps the connection and goes quiet.
            let silent = try loopbackConnection(port: port, timeout: 30)
            defer { close(silent) }
            let keptAlive = try loopbackConnection(port: port, timeout: 30)
            defer { close(keptAlive) }
            try sendAll(keptAlive, "GET /js/app.js HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieHeader(port: port, token: token))\r\n\r\n")
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(keptAlive, $0.baseAddress, $0.count, 0) }
            let status = String(decoding: buffer[..<max(0, count)], as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
            return (readUntilClosed(silent), readUntilClosed(keptAlive), status, ContinuousClock.now - started)
        }.value
        print("idle: the silent and the kept-alive connection were closed within \(took) (idle timeout 0.3 s)")
        #expect(status == "HTTP/1.1 200 OK")
        #expect(silentClosed)
        #expect(keptAliveClosed)
        // The page has been quiet for longer than the idle timeout, and is still the journey.
        #expect(!page.isClosed)
        host.send(event: "host.ping")
        #expect(await page.waitFor { $0.count == 1 })
        #expect(host.isJourneyAttached)
        await page.close()
        await server.stop()
    }
}
