import Foundation

/// How the filter language compares text, shared by the log's rows (`LogFilter`) and messages
/// in flight (``InFlightMessageFilter``) so that a term means the same in both.
///
/// A log filter runs these once per row, for every row, whenever the filter changes (a million
/// rows in a long session), so the common all-ASCII case is matched on the UTF-8 bytes without
/// allocating; anything else takes the general (slower) path with the same result.
package enum TextMatching {
    /// `haystack.lowercased().contains(needle)`, for a needle that is already lowercased.
    package static func containsLowercased(_ haystack: String, _ needle: String) -> Bool {
        let fast = haystack.utf8.withContiguousStorageIfAvailable { hay in
            needle.utf8.withContiguousStorageIfAvailable { pattern -> Bool? in
                guard !pattern.isEmpty, isASCII(hay), isASCII(pattern) else { return nil }
                return asciiFoldedIndex(of: pattern, in: hay) != nil
            } ?? nil
        } ?? nil
        return fast ?? haystack.lowercased().contains(needle)
    }

    /// Whether the bytes of `text` occur in `data`.
    package static func containsBytes(_ data: Data, _ text: String) -> Bool {
        let fast = data.withUnsafeBytes { raw in
            text.utf8.withContiguousStorageIfAvailable { pattern -> Bool? in
                guard !pattern.isEmpty else { return nil }
                return byteIndex(of: pattern, in: raw.assumingMemoryBound(to: UInt8.self), from: 0) != nil
            } ?? nil
        }
        return fast ?? (data.range(of: Data(text.utf8)) != nil)
    }

    /// ``ActionPattern/matches(_:_:)``, with a byte-level fast path for ASCII (the common case).
    package static func glob(_ pattern: String, _ text: String) -> Bool {
        let fast = pattern.utf8.withContiguousStorageIfAvailable { pattern in
            text.utf8.withContiguousStorageIfAvailable { text -> Bool? in
                guard isASCII(pattern), isASCII(text) else { return nil }
                return asciiGlob(pattern, text)
            } ?? nil
        } ?? nil
        return fast ?? ActionPattern.matches(pattern, text)
    }

    /// Printable ASCII only: no multi-byte characters and no `\r\n` (one Swift character).
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The first index at or after `start` where `needle` occurs in `hay`.
    private static func byteIndex(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= hay.count ? start : nil }
        guard let base = hay.baseAddress, let pattern = needle.baseAddress, hay.count - start >= needle.count else { return nil }
        let first = Int32(needle[0])
        var index = start
        let last = hay.count - needle.count
        while index <= last {
            // Jump to the next occurrence of the first byte, then compare the rest.
            guard let found = memchr(base + index, first, last - index + 1) else { return nil }
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, pattern, needle.count) == 0 { return index }
            index += 1
        }
        return nil
    }

    /// The first index where `needle` (lowercase ASCII) occurs in `hay` (ASCII) ignoring case.
    private static func asciiFoldedIndex(of needle: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Int? {
        guard hay.count >= needle.count else { return nil }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        for index in 0...(hay.count - needle.count) {
            var offset = 0
            while offset < needle.count, lower(hay[index + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return index }
        }
        return nil
    }

    /// ``glob(_:_:)`` on ASCII bytes: the same first-prefix, leftmost-middle, last-suffix match.
    private static func asciiGlob(_ pattern: UnsafeBufferPointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        guard pattern.contains(star) else { return pattern.elementsEqual(text) }
        var partStart = 0
        var position = 0
        var isFirst = true
        while true {
            var partEnd = partStart
            while partEnd < pattern.count, pattern[partEnd] != star { partEnd += 1 }
            let part = UnsafeBufferPointer(rebasing: pattern[partStart..<partEnd])
            if partEnd == pattern.count {
                // The last part must end the text (after what the earlier parts took).
                guard !part.isEmpty else { return true }
                return text.count - position >= part.count && text[(text.count - part.count)...].elementsEqual(part)
            }
            if isFirst {
                guard text.count >= part.count, text[0..<part.count].elementsEqual(part) else { return false }
                position = part.count
            } else if !part.isEmpty {
                guard let found = byteIndex(of: part, in: text, from: position) else { return false }
                position = found + part.count
            }
            isFirst = false
            partStart = partEnd + 1
        }
    }
}
