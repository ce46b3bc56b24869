/// The body of a POST or PUT to StudentLocation: what a student posts about themselves.
///
/// Coordinates are numbers (never strings, which the server refuses with code 111) and
/// `Double` (never `Float`, which loses precision).
public struct NewStudentLocation: Codable, Sendable, Hashable {
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double

    public init(
        uniqueKey: String, firstName: String, lastName: String, mapString: String, mediaURL: String,
        latitude: Double, longitude: Double
    ) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `201` body of a POST: `{"createdAt":"…","objectId":"…"}`.
public struct CreatedLocation: Codable, Sendable, Hashable {
    public var createdAt: String
    public var objectId: String

    public init(createdAt: String, objectId: String) {
        self.createdAt = createdAt
        self.objectId = objectId
    }
}

/// `200` body of a PUT: `{"updatedAt":"…"}`.
public struct UpdatedLocation: Codable, Sendable, Hashable {
    public var updatedAt: String

    public init(updatedAt: String) { self.updatedAt = updatedAt }
}

/// A Parse-style error body: `{"code":142,"error":"…"}`.
public struct ParseErrorBody: Codable, Sendable, Hashable {
    public var code: Int
    public var error: String

    public init(code: Int, error: String) {
        self.code = code
        self.error = error
    }
}
