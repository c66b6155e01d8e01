import AgentTesting
import Testing

extension EmbeddedAgent {
    /// Sends `command` (the frame's `"command":…` members, e.g. `"journey","args":{…}`) as `id`
    /// from `client` and runs the agent until its reply arrives; returns every frame read
    /// meanwhile. The command runs on the main actor, as the host's own code does, so each round
    /// yields to it first.
    func perform(_ command: String, id: String, client: EmbeddedConnection) async throws -> [Frame] {
        client.send(#"{"kind":"command","id":"\#(id)","command":\#(command)}"#)
        var frames: [Frame] = []
        for _ in 0..<1_000 {
            await Task.yield()
            run()
            frames += try client.readFrames()
            if frames.contains(where: { $0.isReply && $0.id == id }) { return frames }
        }
        Issue.record("no reply to \(id)")
        return frames
    }
}
