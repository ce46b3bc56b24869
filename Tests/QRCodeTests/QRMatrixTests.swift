import Testing

@testable import QRCode

/// The QR code of a verification URL: libqrencode's matrix, and its half-block and ASCII drawings.
struct QRMatrixTests {
    static let url = "https://example.com/device?user_code=WDJB-MJHT"

    /// The 7×7 finder pattern whose top-left module is at (x, y): a dark ring, a light ring, a dark 3×3 centre.
    static func hasFinder(_ matrix: QRMatrix, x: Int, y: Int) -> Bool {
        (0..<7).allSatisfy { dy in
            (0..<7).allSatisfy { dx in
                let ring = max(abs(dx - 3), abs(dy - 3))
                return matrix.isDark(x: x + dx, y: y + dy) == (ring != 2)
            }
        }
    }

    @Test func aURLBecomesAVersion3CodeWithItsThreeFinderPatterns() throws {
        let matrix = try #require(QRMatrix.encode(Self.url))
        // 47 bytes at level L need version 3: 29 modules a side.
        #expect(matrix.size == 29)
        #expect(Self.hasFinder(matrix, x: 0, y: 0))
        #expect(Self.hasFinder(matrix, x: matrix.size - 7, y: 0))
        #expect(Self.hasFinder(matrix, x: 0, y: matrix.size - 7))
        #expect(!Self.hasFinder(matrix, x: matrix.size - 7, y: matrix.size - 7))
        // The timing pattern alternates along row 6 between the finders.
        #expect((8..<(matrix.size - 8)).allSatisfy { matrix.isDark(x: $0, y: 6) == ($0 % 2 == 0) })
        #expect(QRMatrix.encode(Self.url) == matrix, "the same text gives the same code")
    }

    @Test func halfBlocksPutTwoModuleRowsInOneLineWithAQuietZone() throws {
        let matrix = try #require(QRMatrix.encode(Self.url))
        let lines = matrix.lines()
        let side = matrix.size + 2 * QRMatrix.quietZone
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        #expect(lines[0].allSatisfy { $0 == " " }, "the quiet zone above")
        // Quiet rows -2, -1 are line 0; rows 0 and 1 (finder top ring, then ring with a gap) are line 1.
        #expect(lines[1].hasPrefix("  █▀▀▀▀▀█"))
        #expect(Set(lines.joined()).isSubset(of: [" ", "▀", "▄", "█"]))
        let ascii = matrix.lines(ascii: true)
        #expect(ascii.count == side)
        #expect(ascii[2].hasPrefix("    ##############"))
        #expect(Set(ascii.joined()).isSubset(of: [" ", "#"]))
    }

    @Test func whatCannotBeEncodedIsNil() {
        #expect(QRMatrix.encode("") == nil)
        #expect(QRMatrix.encode(String(repeating: "x", count: 5000)) == nil)
        #expect(QRMatrix(size: 3, modules: [true]) == nil)
    }
}
