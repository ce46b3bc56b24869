/// Border lines (Natural Earth): polylines in the same encoding and storage as `LandRings`,
/// whose "rings" are open lines here.
public struct MapLines: Sendable {
    let paths: LandRings

    public var lineCount: Int { paths.ringCount }
    public var vertexCount: Int { paths.vertexCount }

    /// Country borders at 1:110m, for world and continent views.
    public static let coarseBorders = MapLines(paths: LandRings(decoding: Base64.decode(borders110mBase64)))
    /// Country borders at 1:50m, for close views.
    public static let detailedBorders = MapLines(paths: LandRings(decoding: Base64.decode(borders50mBase64)))
    /// First-level borders (states, provinces) where Natural Earth has them (US, CA, BR, AU), 1:50m.
    public static let admin1 = MapLines(paths: LandRings(decoding: Base64.decode(admin1Lines50mBase64)))
}
