import Testing
import TerminalUI

@Suite("Rect")
struct RectTests {
    let area = Rect(x: 0, y: 0, width: 80, height: 24)

    @Test("Rows: fixed header and footer, body takes the rest")
    func rowsFixedAndMin() {
        let parts = area.rows(.fixed(1), .min(0), .fixed(1))
        #expect(parts == [
            Rect(x: 0, y: 0, width: 80, height: 1),
            Rect(x: 0, y: 1, width: 80, height: 22),
            Rect(x: 0, y: 23, width: 80, height: 1),
        ])
    }

    @Test("Columns: fractions cover odd widths completely")
    func columnsFractions() {
        let halves = Rect(x: 5, y: 2, width: 11, height: 3).columns(.fraction(0.5), .fraction(0.5))
        #expect(halves.map(\.width).reduce(0, +) == 11)
        #expect(halves[0].x == 5)
        #expect(halves[1].x == halves[0].maxX)
        #expect(halves.allSatisfy { $0.y == 2 && $0.height == 3 })

        let thirds = area.columns([.fraction(1.0 / 3), .fraction(1.0 / 3), .fraction(1.0 / 3)])
        #expect(thirds.map(\.width).reduce(0, +) == 80)
    }

    @Test("Min parts share leftover space, earlier ones get the odd cell")
    func minShares() {
        let parts = Rect(x: 0, y: 0, width: 11, height: 1).columns(.fixed(4), .min(1), .min(1))
        #expect(parts.map(\.width) == [4, 4, 3])
        #expect(parts.map(\.x) == [0, 4, 8])
    }

    @Test("When space runs out, later parts shrink first and nothing goes negative")
    func overflow() {
        let parts = Rect(x: 0, y: 0, width: 10, height: 2).rows(.fixed(1), .min(3), .fixed(1))
        #expect(parts.map(\.height) == [1, 1, 0])
        #expect(parts[2].isEmpty)
    }

    @Test("Inset, centered, contains, intersection")
    func helpers() {
        #expect(area.inset(1) == Rect(x: 1, y: 1, width: 78, height: 22))
        #expect(area.inset(top: 2, left: 3) == Rect(x: 3, y: 2, width: 77, height: 22))
        #expect(Rect(x: 0, y: 0, width: 3, height: 1).inset(2).isEmpty)
        #expect(area.centered(width: 40, height: 10) == Rect(x: 20, y: 7, width: 40, height: 10))
        #expect(Rect(x: 0, y: 0, width: 5, height: 5).centered(width: 9, height: 9) == Rect(x: 0, y: 0, width: 5, height: 5))
        #expect(area.contains(Point(x: 79, y: 23)))
        #expect(!area.contains(Point(x: 80, y: 0)))
        #expect(Rect(x: 0, y: 0, width: 10, height: 10).intersection(Rect(x: 5, y: 5, width: 10, height: 10)) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(Rect(x: 0, y: 0, width: 2, height: 2).intersection(Rect(x: 5, y: 5, width: 1, height: 1)).isEmpty)
    }
}
