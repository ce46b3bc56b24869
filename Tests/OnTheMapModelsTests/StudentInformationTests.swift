import Foundation
import Testing

@testable import OnTheMapModels

@Suite struct StudentInformationTests {
    @Test func readsAFullRecord() throws {
        let json = #"{"createdAt":"2015-04-30T01:12:44.127Z","firstName":"Ivan","lastName":"lares","latitude":33.8316,"longitude":-118.264,"mapString":"Carson, CA","mediaURL":"http://www.laresivan.com","objectId":"sfECEbbwj7","uniqueKey":"u35788505","updatedAt":"2015-04-30T01:12:44.127Z","ACL":{"*":{"read":true}}}"#
        let record = try JSONDecoder().decode(StudentInformation.self, from: Data(json.utf8))
        #expect(record.objectId == "sfECEbbwj7")
        #expect(record.fullName == "Ivan lares")
        #expect(record.latitude == 33.8316)
        #expect(record.updatedAt.map(WireDate.string(from:)) == "2015-04-30T01:12:44.127Z")
    }

    @Test func acceptsANumericUniqueKeyAndMissingOrNullText() throws {
        let json = #"{"objectId":"a","uniqueKey":1234,"latitude":1,"longitude":2,"firstName":null}"#
        let record = try JSONDecoder().decode(StudentInformation.self, from: Data(json.utf8))
        #expect(record.uniqueKey == "1234")
        #expect(record.firstName == "")
        #expect(record.mediaURL == "")
        #expect(record.createdAt == nil)
    }

    @Test(arguments: [
        #"{"latitude":1,"longitude":2}"#,
        #"{"objectId":"","latitude":1,"longitude":2}"#,
        #"{"objectId":"a","longitude":2}"#,
        #"{"objectId":"a","latitude":91,"longitude":2}"#,
        #"{"objectId":"a","latitude":1,"longitude":-180.5}"#,
        #"{"objectId":"a","latitude":"abc","longitude":2}"#,
        #"{"objectId":"a","latitude":null,"longitude":2}"#,
        #"[1,2]"#,
    ])
    func refusesUnusableRecords(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StudentInformation.self, from: Data(json.utf8))
        }
    }

    @Test func dictionaryInitializerMatchesDecoding() throws {
        let dictionary: [String: Any] = [
            "objectId": "x1", "uniqueKey": 99, "firstName": "Ada", "latitude": NSNumber(value: 51.5),
            "longitude": -0.12, "mediaURL": NSNull(),
        ]
        let record = try #require(StudentInformation(dictionary: dictionary))
        #expect(record.uniqueKey == "99")
        #expect(record.mediaURL == "")
        #expect(StudentInformation(dictionary: ["objectId": "x"]) == nil)
    }

    @Test func listDecodeSkipsBrokenRowsAndCountsThem() throws {
        let json = #"{"results":[{"objectId":"a","latitude":1,"longitude":2},{"objectId":"b"},17,{"objectId":"c","latitude":3,"longitude":4}],"count":40}"#
        let list = try StudentLocationList.decode(Data(json.utf8))
        #expect(list.locations.map(\.objectId) == ["a", "c"])
        #expect(list.skipped == 2)
        #expect(list.count == 40)
        #expect(throws: DecodingError.self) { try StudentLocationList.decode(Data(#"{"error":"x"}"#.utf8)) }
    }

    @Test func realDumpFrom2015DecodesEveryRow() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/student-locations-2015.json").standardizedFileURL
        let list = try StudentLocationList.decode(Data(contentsOf: url))
        #expect(list.locations.count + list.skipped == 157)
        #expect(list.locations.count == 157)
        #expect(list.locations.contains { $0.mediaURL == "HTTPS://www.google.com" })
    }

    @Test func encodesWireNames() throws {
        let record = StudentInformation(
            objectId: "o", uniqueKey: "k", firstName: "F", lastName: "L", mapString: "M", mediaURL: "U",
            latitude: 37.386052, longitude: -122.083851, createdAt: Date(timeIntervalSince1970: 0.5))
        let object = try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        #expect(object["createdAt"] as? String == "1970-01-01T00:00:00.500Z")
        #expect(object["latitude"] as? Double == 37.386052)
        #expect(object["updatedAt"] == nil)
    }
}

@Suite struct WireDateTests {
    @Test(arguments: [
        ("2015-03-09T22:04:50.315Z", 1_425_938_690.315),
        ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29T12:00:00.5+00:00", 951_825_600.5),
        ("1969-12-31T23:59:59.000Z", -1),
    ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(WireDate.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test(arguments: ["", "yesterday", "2015-13-09T22:04:50Z", "2015-03-09 22:04:50Z", "2015-03-09T22:04:50.Z", "2015-03-09T22:04:50"])
    func refuses(text: String) {
        #expect(WireDate.date(from: text) == nil)
    }

    @Test func roundTripsMilliseconds() {
        for seconds in [0.0, 1_425_938_690.315, 4_102_444_800.999, -86_400.25] {
            let text = WireDate.string(from: Date(timeIntervalSince1970: seconds))
            #expect(WireDate.date(from: text).map { abs($0.timeIntervalSince1970 - seconds) < 0.001 } == true, "\(text)")
        }
        #expect(WireDate.microsecondString(from: Date(timeIntervalSince1970: 1_431_276_510.76046)) == "2015-05-10T16:48:30.760460Z")
    }

    @Test func stripsThePrefixOnlyWhereItIs() {
        #expect(XSSIPrefix.strip(Data(")]}'\n{}".utf8)) == Data("{}".utf8))
        #expect(XSSIPrefix.strip(Data("{}".utf8)) == Data("{}".utf8))
        #expect(XSSIPrefix.strip(Data(")]}'".utf8)) == Data(")]}'".utf8))
    }
}

@Suite struct HiddenRowTests {
    @Test func hiddenFieldsAreReadAndWrittenBackOnlyWhenHidden() throws {
        let json = #"{"objectId":"a","latitude":1,"longitude":2,"hidden":true,"hiddenReason":"spam"}"#
        let record = try JSONDecoder().decode(StudentInformation.self, from: Data(json.utf8))
        #expect(record.hidden && record.hiddenReason == "spam")
        let again = try JSONDecoder().decode(StudentInformation.self, from: JSONEncoder().encode(record))
        #expect(again == record)
        // A visible row is encoded as before: no hidden fields at all.
        let plain = try JSONDecoder().decode(StudentInformation.self, from: Data(#"{"objectId":"b","latitude":1,"longitude":2}"#.utf8))
        let text = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(!plain.hidden && !text.contains("hidden"))
    }
}
