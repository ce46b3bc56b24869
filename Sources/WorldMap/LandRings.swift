/// Land polygons (Natural Earth admin-0 countries) as flat arrays of rings, ready to rasterize.
///
/// Coordinates are hundredths of a degree. Every ring also has a bounding box, so a zoomed-in
/// frame skips the rings it cannot see.
public struct LandRings: Sendable {
    /// Longitudes and latitudes, interleaved, in hundredths of a degree.
    let coordinates: [Int16]
    /// Index (in points) where each ring starts; one extra entry closes the last ring.
    let ringStarts: [Int]
    /// Per ring: min lon, max lon, min lat, max lat in hundredths of a degree.
    let bounds: [(Int16, Int16, Int16, Int16)]

    public var ringCount: Int { bounds.count }
    public var vertexCount: Int { coordinates.count / 2 }

    /// Natural Earth 1:110m, for world and continent views.
    public static let coarse = LandRings(decoding: Base64.decode(land110mBase64))
    /// Natural Earth 1:50m, for close views.
    public static let detailed = LandRings(decoding: Base64.decode(land50mBase64))

    /// Reads the little-endian format written by scripts/data/build_geodata.py.
    init(decoding bytes: [UInt8]) {
        var offset = 0
        func readUInt32() -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
                | Int(bytes[offset + 3]) << 24
        }
        func readInt16() -> Int16? {
            guard offset + 2 <= bytes.count else { return nil }
            defer { offset += 2 }
            return Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
        }
        var coordinates: [Int16] = []
        coordinates.reserveCapacity(bytes.count / 2)
        var starts: [Int] = [0]
        var bounds: [(Int16, Int16, Int16, Int16)] = []
        let count = readUInt32() ?? 0
        ringLoop: for _ in 0..<count {
            guard let n = readUInt32(), n > 0 else { break }
            var box = (Int16.max, Int16.min, Int16.max, Int16.min)
            for _ in 0..<n {
                guard let lon = readInt16(), let lat = readInt16() else { break ringLoop }
                coordinates.append(lon)
                coordinates.append(lat)
                box = (min(box.0, lon), max(box.1, lon), min(box.2, lat), max(box.3, lat))
            }
            starts.append(coordinates.count / 2)
            bounds.append(box)
        }
        if let end = starts.last, coordinates.count > end * 2 {
            coordinates.removeSubrange((end * 2)...)
        }
        self.coordinates = coordinates
        self.ringStarts = starts
        self.bounds = bounds
    }
}
