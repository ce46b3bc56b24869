import Foundation
import Testing

@testable import onthemap

/// `list`, `map` and `post` in accessible mode: sentences a screen reader reads well, no
/// Braille or box drawing (the real binary on the built-in demo server).
@Suite struct AccessibleOutputTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ListCommandTests.Run {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        return try await ListCommandTests.run(arguments, dataHome: home, environment: environment)
    }

    static func noise(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) || (0x2500...0x259F).contains($0.value) }
    }

    @Test func mapAccessiblePrintsTheViewInWords() async throws {
        let result = try await run(["map", "--accessible"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Map of the whole world, centred on ") == true)
        #expect(lines.dropFirst().first?.contains("classmates in view, newest first") == true)
        #expect(lines.contains { $0.hasSuffix("classmates.") || $0.hasSuffix("classmate.") }, "a country heading")
        #expect(!Self.noise(result.stdout))
    }

    @Test func accessibleFromTheEnvironmentAndTheFlagBeatsIt() async throws {
        let place = try await run(["map", "--place", "Paris"], environment: ["ACCESSIBLE": "1"])
        #expect(place.status == 0, "\(place.stderr)")
        #expect(place.stdout.hasPrefix("Map of Paris, France"), "\(place.stdout.prefix(200))")
        let drawn = try await run(["map", "--no-accessible", "--ascii"], environment: ["ACCESSIBLE": "1"])
        #expect(!drawn.stdout.hasPrefix("Map of"))
    }

    @Test func listAccessibleIsOneSentenceARow() async throws {
        let result = try await run(["list", "--accessible", "--limit", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.first == "3 classmates, newest first.")
        #expect(lines.dropFirst().allSatisfy { $0.contains(" ago") && $0.hasSuffix(".") })
        #expect(lines[1].hasPrefix("1. ") && lines[3].hasPrefix("3. "))
        #expect(!Self.noise(result.stdout))
    }
}
