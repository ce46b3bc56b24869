import Foundation

/// One StudentLocation record: a student, the place they study, and a link.
///
/// Decoding is forgiving the way real dumps need: `uniqueKey` may be a number, any text field
/// may be missing or null (it becomes `""`), and extra keys (`ACL`, `mediaUrl`) are ignored.
/// A record is refused only when it is unusable: no `objectId`, or no finite latitude and
/// longitude in range. A row hidden by a moderator reaches only its owner and moderators, with
/// `"hidden": true` and `"hiddenReason"` (Docs/Access.md); other clients never see those fields.
public struct StudentInformation: Sendable, Hashable, Identifiable {
    public var objectId: String
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date?
    public var updatedAt: Date?
    /// Hidden by a moderator: shown only to its owner and to moderators, marked.
    public var hidden: Bool
    /// Why it was hidden, as the moderator wrote it (network text: clean before output).
    public var hiddenReason: String?

    public var id: String { objectId }

    /// "First Last", trimmed; empty when both names are.
    public var fullName: String {
        "\(firstName) \(lastName)".trimmingCharacters(in: .whitespaces)
    }

    public init(
        objectId: String, uniqueKey: String, firstName: String, lastName: String, mapString: String,
        mediaURL: String, latitude: Double, longitude: Double, createdAt: Date? = nil, updatedAt: Date? = nil,
        hidden: Bool = false, hiddenReason: String? = nil
    ) {
        self.objectId = objectId
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.hidden = hidden
        self.hiddenReason = hiddenReason
    }

    /// Reads a record from a decoded JSON object; `nil` when it is unusable.
    public init?(json: JSONValue) {
        guard case .object(let fields) = json else { return nil }
        guard let objectId = fields["objectId"]?.stringValue, !objectId.isEmpty,
            let latitude = fields["latitude"]?.doubleValue, CoordinateBounds.isValidLatitude(latitude),
            let longitude = fields["longitude"]?.doubleValue, CoordinateBounds.isValidLongitude(longitude)
        else { return nil }
        func text(_ key: String) -> String { fields[key]?.stringValue ?? "" }
        self.init(
            objectId: objectId, uniqueKey: text("uniqueKey"), firstName: text("firstName"),
            lastName: text("lastName"), mapString: text("mapString"), mediaURL: text("mediaURL"),
            latitude: latitude, longitude: longitude,
            createdAt: fields["createdAt"]?.stringValue.flatMap(WireDate.date(from:)),
            updatedAt: fields["updatedAt"]?.stringValue.flatMap(WireDate.date(from:)),
            hidden: fields["hidden"] == .bool(true), hiddenReason: fields["hiddenReason"]?.stringValue)
    }

    /// Reads a record from a `JSONSerialization` dictionary; `nil` when it is unusable.
    public init?(dictionary: [String: Any]) {
        guard let json = JSONValue(any: dictionary) else { return nil }
        self.init(json: json)
    }
}

extension StudentInformation: Codable {
    enum CodingKeys: String, CodingKey {
        case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt
        case hidden, hiddenReason
    }

    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        guard let record = StudentInformation(json: json) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a usable StudentLocation record"))
        }
        self = record
    }

    /// Encodes with the wire field names; timestamps as ISO-8601 with milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(objectId, forKey: .objectId)
        try container.encode(uniqueKey, forKey: .uniqueKey)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
        try container.encode(mapString, forKey: .mapString)
        try container.encode(mediaURL, forKey: .mediaURL)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encodeIfPresent(createdAt.map(WireDate.string(from:)), forKey: .createdAt)
        try container.encodeIfPresent(updatedAt.map(WireDate.string(from:)), forKey: .updatedAt)
        // Only a hidden row carries the fields, as the server sends them (Docs/Access.md).
        if hidden {
            try container.encode(true, forKey: .hidden)
            try container.encodeIfPresent(hiddenReason, forKey: .hiddenReason)
        }
    }
}

/// The result of decoding a `{"results":[…]}` list: the usable records and how many were not.
public struct StudentLocationList: Sendable, Equatable {
    public var locations: [StudentInformation]
    /// Rows that were present but unusable (no objectId, bad coordinates, not an object).
    public var skipped: Int
    /// `count` when the request asked for it.
    public var count: Int?

    public init(locations: [StudentInformation], skipped: Int, count: Int? = nil) {
        self.locations = locations
        self.skipped = skipped
        self.count = count
    }

    /// Decodes a list body, skipping malformed rows instead of failing.
    /// - Throws: `DecodingError` when the body is not a JSON object with a `results` array.
    public static func decode(_ data: Data) throws -> StudentLocationList {
        let body = try JSONDecoder().decode(JSONValue.self, from: data)
        guard case .array(let rows) = body["results"] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no results array"))
        }
        let locations = rows.compactMap(StudentInformation.init(json:))
        let count = body["count"]?.doubleValue.flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
        return StudentLocationList(locations: locations, skipped: rows.count - locations.count, count: count)
    }
}
