import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

/// "Is this row mine?" and "may I hide it?" have one answer, `Viewer`, which every pane, key
/// command and accessible view asks.
@MainActor
struct ViewerTests {
    let mine = SampleRows.row("m1", "Ada Lovelace", key: FakeAPI.accountKey)
    let theirs = SampleRows.row("t1", "Grace Hopper", key: "someone-else")

    @Test func aRowIsYoursOnlyWhenItsKeyIsYourAccount() {
        let student = Viewer(accountKey: FakeAPI.accountKey)
        #expect(student.owns(mine) && !student.owns(theirs))
        #expect(student.own([theirs, mine, theirs]) == [mine])
        #expect(student.mayDelete(mine) && !student.mayDelete(theirs))
        // Logged out, nothing is yours, not even a row whose key is empty.
        let nobody = Viewer()
        let keyless = SampleRows.row("e1", "No Key", key: "")
        #expect(!nobody.owns(mine) && !nobody.owns(keyless) && !nobody.mayDelete(mine))
    }

    @Test func onlyModeratorsMayHideAndThenAnyRow() {
        let student = Viewer(accountKey: FakeAPI.accountKey)
        #expect(!student.mayHide(mine) && !student.mayHide(theirs))
        let moderator = Viewer(accountKey: FakeAPI.accountKey, isModerator: true)
        #expect(moderator.mayHide(mine) && moderator.mayHide(theirs))
        #expect(!Viewer(isModerator: true).mayHide(theirs))
    }

    @Test func theAppAsksItsViewer() async throws {
        let app = try #require(await loggedInApp())
        #expect(app.viewer == Viewer(accountKey: FakeAPI.accountKey, isModerator: app.isModerator))
        #expect(app.ownRows.allSatisfy(app.viewer.owns))
        #expect(app.ownRows.map(\.objectId) == app.viewer.own(app.store.locations).map(\.objectId))
    }

    /// The question is asked of `Viewer` alone: no other client source compares a row's
    /// `uniqueKey` with an account key (the server's `Access` is the server's own rule). This had
    /// been written out in 9 places: the view-models, TablePane, CardsPane, MapPane and MapWords.
    @Test func noOtherClientFileComparesAUniqueKey() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let comparison = /uniqueKey\s*[!=]=|[!=]=\s*[A-Za-z_.?]*uniqueKey\b/
        // The server's targets: OnTheMapServer, OnTheMapServerPostgres, ClassRules and the Server… layers.
        let serverTargets = ["OnTheMapServer", "ClassRules", "Server"]
        var offenders: [String] = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let path = file.path.replacingOccurrences(of: sources.path + "/", with: "")
            if serverTargets.contains(where: path.hasPrefix) || path == "ViewModels/Viewer.swift" { continue }
            read += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(comparison) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                offenders.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(read > 100, "the sources were not found at \(sources.path)")
        #expect(offenders.isEmpty, "ask Viewer instead:\n\(offenders.joined(separator: "\n"))")
        // The check itself can fail.
        #expect("if row.uniqueKey == model.accountKey {".contains(comparison))
        #expect("guard key != row.uniqueKey".contains(comparison))
    }
}
