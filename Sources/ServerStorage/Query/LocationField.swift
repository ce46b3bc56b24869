/// The fields of the StudentLocation class and their columns.
package enum LocationField: String, CaseIterable, Sendable {
    case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt

    package enum Kind { case text, number, date }

    package var column: String {
        switch self {
        case .objectId: return "object_id"
        case .uniqueKey: return "unique_key"
        case .firstName: return "first_name"
        case .lastName: return "last_name"
        case .mapString: return "map_string"
        case .mediaURL: return "media_url"
        case .latitude: return "latitude"
        case .longitude: return "longitude"
        case .createdAt: return "created_at"
        case .updatedAt: return "updated_at"
        }
    }

    package var kind: Kind {
        switch self {
        case .latitude, .longitude: return .number
        case .createdAt, .updatedAt: return .date
        default: return .text
        }
    }

    /// Fields a client may write; the server owns the rest.
    package static let writable: [LocationField] = [.uniqueKey, .firstName, .lastName, .mapString, .mediaURL, .latitude, .longitude]
}

/// A value bound into SQL: never interpolated.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}
