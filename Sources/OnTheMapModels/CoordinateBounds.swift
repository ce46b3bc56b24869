/// The one definition of a usable coordinate: finite, latitude in −90…90, longitude in −180…180.
/// The client skips rows outside it, the server refuses them, and imports skip them.
public enum CoordinateBounds {
    public static let maxLatitude = 90.0
    public static let maxLongitude = 180.0

    public static func isValidLatitude(_ value: Double) -> Bool { value.isFinite && abs(value) <= maxLatitude }
    public static func isValidLongitude(_ value: Double) -> Bool { value.isFinite && abs(value) <= maxLongitude }
}
