import Foundation
import OnTheMapModels
import ServerTestSupport
import StandIn
import Testing

/// `onthemap post` with an online geocoder's street-level answer (a stand-in Nominatim on
/// loopback, answering as the real one did for this address): what the real server stores is
/// rounded to the city grid unless the student chose `--precision exact`.
@Suite struct PostPrecisionTests {
    /// Nominatim's `/search?format=jsonv2` answer for a building (place_rank 30).
    static let streetAnswer = """
        [{"place_id":1,"lat":"38.7107544","lon":"-9.1367201","category":"building","type":"yes","place_rank":30,\
        "addresstype":"building","name":"Arco da Rua Augusta","display_name":"Arco da Rua Augusta, 24, Rua Augusta, \
        Baixa, Santa Maria Maior, Lisboa, 1100-053, Portugal","boundingbox":["38.7106","38.7109","-9.1369","-9.1365"]}]
        """

    @Test func aStreetAnswerIsStoredNoFinerThanAboutAKilometre() async throws {
        let nominatim = try StandInServer.answering { _ in (200, Self.streetAnswer) }
        defer { nominatim.stop() }
        let server = try await TestServer.start()
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await server.addUser(email: "ada@example.com", password: "correct horse", firstName: "Ada")
        let url = server.baseURL.absoluteString
        func onthemap(_ arguments: [String], input: String = "") async throws -> ListCommandTests.Run {
            try await SessionCommandsTests.run(arguments + ["--server", url], home: home, input: input)
        }
        let login = try await onthemap(
            ["login", "--email", "ada@example.com", "--password-stdin"], input: "correct horse\n")
        #expect(login.status == 0, "\(login.stderr)")
        let post = ["post", "--place", "Rua Augusta 24, Lisboa", "--link", "ada.example.com", "--yes"]
        let online = ["--geocoder", "nominatim", "--geocoder-url", nominatim.baseURL.absoluteString]

        let city = try await onthemap(post + online + ["--precision", "city"])
        #expect(city.status == 0, "\(city.stderr)")
        #expect(city.stderr.contains("Precision: city, posted at city level (about 1 km)"), "\(city.stderr)")
        #expect(nominatim.requests.count == 1)
        var row = try await Self.storedRow(server)
        #expect(row.latitude == 38.71 && row.longitude == -9.14, "\(row)")
        // 0.01° of latitude is 1.11 km; of longitude at 38.7°, 0.87 km: the street is gone.
        #expect(abs(row.latitude - 38.7107544) > 0 && abs(row.longitude - -9.1367201) > 0.003)

        // The default is city too.
        let byDefault = try await onthemap(post + online)
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        row = try await Self.storedRow(server)
        #expect(row.latitude == 38.71 && row.longitude == -9.14, "\(row)")

        // Exact, when the student says so.
        let exact = try await onthemap(post + online + ["--precision", "exact"])
        #expect(exact.status == 0, "\(exact.stderr)")
        #expect(exact.stderr.contains("Precision: exact"), "\(exact.stderr)")
        row = try await Self.storedRow(server)
        #expect(row.latitude == 38.7107544 && row.longitude == -9.1367201, "\(row)")
        #expect(try await server.locationCount() == 1)
        await server.stop()
    }

    /// A street answer that names no class (no `addresstype`, no `place_rank`) is of unknown
    /// precision: `city` takes it as an address and rounds it. It had been posted as it came.
    @Test func anAnswerOfUnknownClassIsStoredOnTheCityGrid() async throws {
        let unclassed = #"[{"lat":"37.80123456","lon":"-122.27123456","display_name":"1 Broadway, Oakland, CA"}]"#
        let nominatim = try StandInServer.answering { _ in (200, unclassed) }
        defer { nominatim.stop() }
        let server = try await TestServer.start()
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await server.addUser(email: "ada@example.com", password: "correct horse", firstName: "Ada")
        let url = server.baseURL.absoluteString
        let login = try await SessionCommandsTests.run(
            ["login", "--email", "ada@example.com", "--password-stdin", "--server", url], home: home,
            input: "correct horse\n")
        #expect(login.status == 0, "\(login.stderr)")
        let post = try await SessionCommandsTests.run(
            [
                "post", "--place", "1 Broadway, Oakland", "--link", "ada.example.com", "--yes", "--geocoder", "nominatim",
                "--geocoder-url", nominatim.baseURL.absoluteString, "--server", url,
            ], home: home)
        #expect(post.status == 0, "\(post.stderr)")
        let row = try await Self.storedRow(server)
        #expect(row.latitude == 37.8 && row.longitude == -122.27, "\(row)")
        await server.stop()
    }

    /// The one row the server holds, read from its database.
    static func storedRow(_ server: TestServer) async throws -> (latitude: Double, longitude: Double) {
        let bytes = try await server.withDatabase { database in
            var bytes = Data()
            _ = try await database.export(format: .json) { bytes.append($0) }
            return bytes
        }
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let rows = try #require(object["results"] as? [[String: Any]])
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        return (try #require(row["latitude"] as? Double), try #require(row["longitude"] as? Double))
    }
}
