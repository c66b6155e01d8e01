/// A longest common subsequence of two sequences of keys, by Myers' O((N+M)·D) algorithm in
/// linear space (the middle-snake recursion), after the common prefix and suffix are taken off.
///
/// Sessions that are mostly equal have a small D, so 100,000 items a side align in about
/// linear time and memory. Where two regions differ so much that finding their best alignment
/// would cost more than ``workLimit`` steps, that region is left unaligned (all of it missing on
/// one side and added on the other), as GNU diff gives up on "too expensive" regions.
struct SequenceAlignment {
    /// The pairs of equal keys, as (left index, right index), both increasing.
    private(set) var matches: [(left: Int, right: Int)] = []

    /// Roughly how many steps one region may take before it is left unaligned.
    static let workLimit = 200_000_000

    private let a: [Int]
    private let b: [Int]

    /// Aligns `left` and `right`.
    init(left: [Int], right: [Int]) {
        a = left
        b = right
        align(aLo: 0, aHi: a.count, bLo: 0, bHi: b.count)
    }

    private mutating func align(aLo: Int, aHi: Int, bLo: Int, bHi: Int) {
        var aLo = aLo, bLo = bLo, aHi = aHi, bHi = bHi
        while aLo < aHi, bLo < bHi, a[aLo] == b[bLo] {
            matches.append((aLo, bLo))
            aLo += 1
            bLo += 1
        }
        var suffix = 0
        while aLo < aHi, bLo < bHi, a[aHi - 1] == b[bHi - 1] {
            aHi -= 1
            bHi -= 1
            suffix += 1
        }
        if aLo < aHi, bLo < bHi, let snake = middleSnake(aLo: aLo, aHi: aHi, bLo: bLo, bHi: bHi) {
            align(aLo: aLo, aHi: aLo + snake.x, bLo: bLo, bHi: bLo + snake.y)
            for step in 0..<(snake.u - snake.x) { matches.append((aLo + snake.x + step, bLo + snake.y + step)) }
            align(aLo: aLo + snake.u, aHi: aHi, bLo: bLo + snake.v, bHi: bHi)
        }
        for step in 0..<suffix { matches.append((aHi + step, bHi + step)) }
    }

    /// The middle snake of the region, from (x, y) to (u, v) relative to its start, or `nil`
    /// when finding it costs more than ``workLimit``.
    private func middleSnake(aLo: Int, aHi: Int, bLo: Int, bHi: Int) -> (x: Int, y: Int, u: Int, v: Int)? {
        let n = aHi - aLo
        let m = bHi - bLo
        let maxD = (n + m + 1) / 2
        let offset = maxD + 1
        var forward = [Int](repeating: 0, count: 2 * maxD + 3)
        var backward = [Int](repeating: 0, count: 2 * maxD + 3)
        let delta = n - m
        let odd = delta % 2 != 0
        for d in 0...maxD {
            if d > 0, d * (n + m) > Self.workLimit { return nil }
            var k = -d
            while k <= d {
                var x = (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1])) ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let startX = x, startY = y
                while x < n, y < m, a[aLo + x] == b[bLo + y] {
                    x += 1
                    y += 1
                }
                forward[offset + k] = x
                let reverseK = delta - k
                if odd, reverseK >= -(d - 1), reverseK <= d - 1, x + backward[offset + reverseK] >= n {
                    return (startX, startY, x, y)
                }
                k += 2
            }
            k = -d
            while k <= d {
                var x = (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1])) ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let startX = x, startY = y
                while x < n, y < m, a[aHi - 1 - x] == b[bHi - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[offset + k] = x
                let forwardK = delta - k
                if !odd, forwardK >= -d, forwardK <= d, x + forward[offset + forwardK] >= n {
                    return (n - x, m - y, n - startX, m - startY)
                }
                k += 2
            }
        }
        return nil
    }
}
