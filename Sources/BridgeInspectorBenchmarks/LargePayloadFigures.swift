import Foundation

/// The large message's figures (issue 30): its journey to a following client, the same stage by
/// stage, and the client's framing of its line; with `--large-only`, also the 30 MiB snapshot's
/// first decode (`attach_large_log_*`).
struct LargePayloadFigures {
    var journey: LargePayloadResult
    var stages: LargePayloadStages
    var framing: LargeLineFraming

    /// Measures the three, `options.payloadRuns` times each (the framing 5 times).
    @MainActor
    static func measure(_ bench: HostBench, options: Options) async throws -> LargePayloadFigures {
        BridgeInspectorBench.progress("large payload: \(options.payloadBytes) bytes × \(options.payloadRuns)")
        let journey = try await bench.largePayload(bytes: options.payloadBytes, runs: options.payloadRuns)
        BridgeInspectorBench.progress("large payload, stage by stage: a raw reader in place of the client, then the client's work on the agent's line")
        let stages = try await bench.largePayloadStages(
            message: Workload.largeMessage(bytes: options.payloadBytes, id: "big-stages"), runs: options.payloadRuns)
        BridgeInspectorBench.progress("large payload: framing its line as the client does, expecting long lines and step by step")
        let framing = try LargeLineFraming.measure(Workload.largeMessage(bytes: options.payloadBytes, id: "big-framing"), runs: 5)
        return LargePayloadFigures(journey: journey, stages: stages, framing: framing)
    }

    func add(to report: inout Report) {
        report.set("large_payload_bytes", journey.bytes)
        report.set("large_payload_ms", journey.endToEndMs)
        report.set("large_payload_host_receive_ms", journey.hostReceiveMs)
        report.set("large_payload_raw_socket_ms", journey.rawSocketMs)
        report.set("large_payload_client_cpu_ms", journey.clientCPUMs)
        report.set("large_payload_client_page_faults", journey.clientPageFaults)
        report.set("large_payload_client_framing_cpu_ms", framing.keptBufferMs)
        report.set("large_payload_client_framing_cpu_ms_fresh_buffer", framing.freshBufferMs)
        report.set("large_payload_client_framing_page_faults", framing.keptBufferFaults)
        report.set("large_payload_client_framing_page_faults_fresh_buffer", framing.freshBufferFaults)
        report.set("large_payload_stages_host_receive_ms", stages.hostReceiveMs)
        report.set("large_payload_stages_first_byte_ms", stages.firstByteMs)
        report.set("large_payload_stages_last_byte_ms", stages.lastByteMs)
        report.set("large_payload_client_line_cpu_ms", stages.clientLineMs)
        report.set("large_payload_client_line_page_faults", stages.clientLineFaults)
        report.set("large_payload_client_decode_cpu_ms", stages.decodeMs)
        report.set("large_payload_client_decode_page_faults", stages.decodeFaults)
        report.set("large_payload_client_decode_cpu_ms_through_data", stages.decodeThroughDataMs)
        report.set("large_payload_client_decode_page_faults_through_data", stages.decodeThroughDataFaults)
    }

    func add(to table: inout Table) {
        table.title("Large payload, \(Format.megabytes(journey.bytes)), median of \(journey.runs)")
        table.row("journey -> client holds it decoded", Format.fixed(journey.endToEndMs, 1) + " ms")
        table.row("  of which host.receive (the host's own decoding)", Format.fixed(journey.hostReceiveMs, 1) + " ms")
        table.row("same bytes over a raw Unix socket", Format.fixed(journey.rawSocketMs, 1) + " ms")
        table.row("the following client's thread, CPU", Format.fixed(journey.clientCPUMs, 1) + " ms",
            "\(Format.fixed(journey.clientPageFaults, 0)) minor page faults")
        table.row("client's framing of its line, long lines expected (CPU)", Format.fixed(framing.keptBufferMs, 1) + " ms",
            "\(Format.fixed(framing.keptBufferFaults, 0)) page faults; step by step: \(Format.fixed(framing.freshBufferMs, 1)) ms, \(Format.fixed(framing.freshBufferFaults, 0)) faults; median of \(framing.runs)")
        table.row("stages, to a raw reader: host.receive returned", Format.fixed(stages.hostReceiveMs, 1) + " ms",
            "first byte read \(Format.fixed(stages.firstByteMs, 1)) ms, last \(Format.fixed(stages.lastByteMs, 1)) ms")
        table.row("  the client's machine on the agent's line (CPU)", Format.fixed(stages.clientLineMs, 1) + " ms",
            "\(Format.fixed(stages.clientLineFaults, 0)) page faults; reads of 256 KiB framed and decoded")
        table.row("  decoding the line from its bytes (CPU)", Format.fixed(stages.decodeMs, 1) + " ms",
            "\(Format.fixed(stages.decodeFaults, 0)) page faults; through a copy in Data: \(Format.fixed(stages.decodeThroughDataMs, 1)) ms, \(Format.fixed(stages.decodeThroughDataFaults, 0)) faults")
    }
}
