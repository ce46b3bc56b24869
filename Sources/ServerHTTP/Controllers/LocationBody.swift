import OnTheMapModels
import ServerStorage

/// Validates a POST/PUT body field by field, with Parse's codes: 111 for a wrong type, 142 for
/// a value out of range, too long, or missing; 105 for `objectId` in a POST.
enum LocationBody {
    static func changes(from json: JSONValue, isCreate: Bool, maxStringBytes: Int) throws(APIFailure) -> LocationChanges {
        guard case .object(let fields) = json else { throw .invalidJSON("the body must be a JSON object") }
        if isCreate, fields["objectId"] != nil { throw .invalidKeyName("objectId is an invalid field name.") }
        var changes = LocationChanges()
        for field in LocationField.writable {
            guard let value = fields[field.rawValue], value != .null else { continue }
            switch field.kind {
            case .number:
                guard case .number(let number) = value else {
                    throw .incorrectType(
                        "schema mismatch for StudentLocation.\(field.rawValue); expected Number but got \(value.parseTypeName)")
                }
                let isLatitude = field == .latitude
                let bound = isLatitude ? CoordinateBounds.maxLatitude : CoordinateBounds.maxLongitude
                guard isLatitude ? CoordinateBounds.isValidLatitude(number) : CoordinateBounds.isValidLongitude(number) else {
                    throw .validation("\(field.rawValue) must be a number between -\(Int(bound)) and \(Int(bound))")
                }
                if field == .latitude { changes.latitude = number } else { changes.longitude = number }
            case .text, .date:
                guard case .string(let text) = value else {
                    throw .incorrectType(
                        "schema mismatch for StudentLocation.\(field.rawValue); expected String but got \(value.parseTypeName)")
                }
                guard text.utf8.count <= maxStringBytes else {
                    throw .validation("\(field.rawValue) is longer than \(maxStringBytes) bytes")
                }
                // SQLite would cut the text there and PostgreSQL refuses it: refuse it here, for both.
                guard !text.utf8.contains(0) else { throw .validation("\(field.rawValue) contains a NUL character") }
                switch field {
                case .uniqueKey: changes.uniqueKey = text
                case .firstName: changes.firstName = text
                case .lastName: changes.lastName = text
                case .mapString: changes.mapString = text
                default: changes.mediaURL = text
                }
            }
        }
        if isCreate {
            if changes.uniqueKey?.isEmpty ?? true { throw .validation("uniqueKey is required for a Student Location") }
            if changes.latitude == nil { throw .validation("latitude is required for a Student Location") }
            if changes.longitude == nil { throw .validation("longitude is required for a Student Location") }
        }
        return changes
    }
}
