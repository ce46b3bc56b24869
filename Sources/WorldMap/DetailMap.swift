/// The detailed land, lakes and rivers (GSHHG and WDBII, Docs/MapData.md) for close views:
/// a mapped file whose tiles are decoded only when a view shows them, into a small cache.
public final class DetailMap: Sendable {
    /// The budget of decoded tiles kept between frames: a city view at 100 m a dot needs a few
    /// hundred kilobytes, so a pan decodes only the tiles coming into view. A wider view may need
    /// more than the budget (its tiles live while the frame is drawn) and decodes again next
    /// frame: 4–32 µs a tile, against the app's 40 MB.
    public static let defaultCacheBudget = 2 << 20

    let file: DetailMapFile
    let cache: DetailTileCache

    /// Opens a detailed map file; throws `DetailMapFile.OpenError` when it cannot be read or is
    /// not one.
    public init(path: String, cacheBudget: Int = defaultCacheBudget) throws {
        file = try DetailMapFile(path: path)
        cache = DetailTileCache(budget: cacheBudget)
    }

    /// The file the app found (`DetailMapLocation`), opened once; nil when there is none, and
    /// the map draws the built-in Natural Earth land at every zoom.
    public static let shared: DetailMap? = opened.map

    /// Why the detailed map is not used (nil when it is): a note for the caller to show.
    public static var note: String? { opened.note }

    private static let opened: (map: DetailMap?, note: String?) = {
        let location = DetailMapLocation.find()
        guard let path = location.path else {
            return (nil, "No detailed map data found (looked in \(location.tried.joined(separator: ", "))); showing the built-in map.")
        }
        do {
            return (try DetailMap(path: path), nil)
        } catch let error as DetailMapFile.OpenError {
            return (nil, error.userMessage)
        } catch {
            return (nil, "The detailed map data could not be read; showing the built-in map.")
        }
    }()

    public var levelCount: Int { file.levels.count }
    public var path: String { file.path }

    /// The level for dots of `dotDegrees`: the coarsest whose simplification (half a dot at most)
    /// stays below a dot, else the finest.
    public func level(forDotDegrees dotDegrees: Double) -> Int {
        let levels = file.levels
        for index in levels.indices where levels[index].tolerance * 2 <= dotDegrees { return index }
        return levels.count - 1
    }

    /// A tile's column and row of `level` holding a coordinate (longitude -180…180).
    func tileKey(level: Int, latitude: Double, longitude: Double) -> Int {
        let level = file.levels[level]
        let column = min(level.columns - 1, max(0, Int(((longitude + 180) / level.tileDegrees).rounded(.down))))
        let row = min(level.rows - 1, max(0, Int(((latitude + 90) / level.tileDegrees).rounded(.down))))
        return row * level.columns + column
    }

    /// The decoded tile `key` of `level` (from the cache when it is there); nil for open sea.
    func tile(level: Int, key: Int) -> DetailTile? {
        cache.tile(DetailTileCache.Key(level: level, tile: key)) {
            guard let bytes = file.tileBytes(level: level, key: key) else { return nil }
            let info = file.levels[level]
            let (column, row) = (key % info.columns, key / info.columns)
            return DetailTile(
                bytes: bytes, west: -180 + Double(column) * info.tileDegrees, south: -90 + Double(row) * info.tileDegrees,
                tileDegrees: info.tileDegrees, steps: info.steps)
        }
    }

    /// The tiles of `level` that overlap a region (longitudes may pass ±180), each with the shift
    /// in hundredths of a degree that puts it on the region's copy of the world.
    func tiles(level: Int, region: MapRegion) -> [(tile: DetailTile, shift: Double)] {
        let info = file.levels[level]
        let size = info.tileDegrees
        let firstRow = max(0, Int(((region.minLatitude + 90) / size).rounded(.down)))
        let lastRow = min(info.rows - 1, Int(((region.maxLatitude + 90) / size).rounded(.down)))
        let firstColumn = Int(((region.minLongitude + 180) / size).rounded(.down))
        let lastColumn = min(firstColumn + info.columns * 2, Int(((region.maxLongitude + 180) / size).rounded(.down)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return [] }
        // Resident memory then holds the decoded cache, not every page a long pan passed over.
        defer { file.releaseResidentPages() }
        var found: [(tile: DetailTile, shift: Double)] = []
        for row in firstRow...lastRow {
            for unwrapped in firstColumn...lastColumn {
                // The column on the world's one copy, and how many copies east or west it sits.
                let column = ((unwrapped % info.columns) + info.columns) % info.columns
                let copy = (unwrapped - column) / info.columns
                if let tile = tile(level: level, key: row * info.columns + column) {
                    found.append((tile, Double(copy) * 36000))
                }
            }
        }
        return found
    }
}
