extension InspectorAgent {
    /// The most event bytes the agent has had queued for any one client, as the gap rule counts
    /// them (``AgentLimits/maxQueuedBytesPerClient`` is where a gap starts), since the agent
    /// started or ``resetEventBacklogHighWater()`` last ran: how close its clients came to a gap.
    ///
    /// Published by the agent's thread after each of its passes, so it can lag the last pass: a
    /// client that filled its queue and left within one pass is not seen, and the pass that takes
    /// a reset publishes nothing of its own. What a pass published is kept after the client
    /// leaves, and the last pass publishes it once ``stop()`` has returned (unless stopping timed
    /// out). For benchmarks and diagnostics:
    ///
    /// ```swift
    /// agent.resetEventBacklogHighWater()
    /// // ... traffic ...
    /// let share = Double(agent.eventBacklogHighWater) / Double(limits.maxQueuedBytesPerClient)
    /// ```
    package var eventBacklogHighWater: Int { loop.eventBacklogHighWater }

    /// Starts ``eventBacklogHighWater`` again: 0 now, and from what each client has queued at the
    /// agent's next pass.
    package func resetEventBacklogHighWater() {
        loop.resetEventBacklogHighWater()
    }
}
