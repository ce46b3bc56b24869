import Testing

@testable import WorldMap

#if canImport(Glibc)
    import Glibc
#endif

/// The detailed map file's reader: its levels, a tile decoded where land and lake meet, the
/// cache's byte budget, and a missing or foreign file falling back to the built-in map.
@Suite struct DetailMapTests {
    static func map(cacheBudget: Int = DetailMap.defaultCacheBudget) throws -> DetailMap {
        try DetailMap(path: DetailMapLocation.sourceTreePath, cacheBudget: cacheBudget)
    }

    /// A scratch file holding `bytes`, removed after `body`.
    static func withFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        var template = Array("/tmp/onthemap-detail-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        try #require(descriptor >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try body(path)
    }

    @Test func theLevelsGoFromKilometresToAHundredMetres() throws {
        let map = try Self.map()
        let levels = map.file.levels
        #expect(levels.map(\.tolerance) == [0.01, 0.0025, 0.001])
        #expect(levels.map(\.tileDegrees) == [4, 1, 0.5])
        #expect(levels.allSatisfy { $0.tileCount > 0 })
        #expect(map.level(forDotDegrees: 0.04) == 0)
        #expect(map.level(forDotDegrees: 0.01) == 1)
        #expect(map.level(forDotDegrees: 0.002) == 2)
        #expect(map.level(forDotDegrees: 0.0001) == 2, "finer than the finest: the finest")
    }

    @Test func aTileOfLakeGenevaHoldsRingsWithinTheTile() throws {
        let map = try Self.map()
        let level = 2
        let key = map.tileKey(level: level, latitude: 46.45, longitude: 6.55)
        let tile = try #require(map.tile(level: level, key: key))
        #expect(tile.ringCount >= 2, "the shore of the lake and the land around it")
        let info = map.file.levels[level]
        let (west, south) = (-180 + Double(key % info.columns) * 0.5, -90 + Double(key / info.columns) * 0.5)
        for index in stride(from: 0, to: tile.ringPoints.count, by: 2) {
            let (lon, lat) = (Double(tile.ringPoints[index]) / 100, Double(tile.ringPoints[index + 1]) / 100)
            #expect(lon >= west - 1e-4 && lon <= west + 0.5 + 1e-4 && lat >= south - 1e-4 && lat <= south + 0.5 + 1e-4)
        }
        #expect(tile.lineRanks.contains { (1...4).contains($0) }, "the Rhône and its neighbours")
        #expect(tile.lineRanks.contains(DetailTile.borderRank), "France and Switzerland meet in the lake")
        #expect(tile.lineRanks.allSatisfy { (1...4).contains($0) || $0 == DetailTile.borderRank }, "no state lines in Switzerland")
    }

    @Test func openSeaHasNoTile() throws {
        let map = try Self.map()
        #expect(map.tile(level: 2, key: map.tileKey(level: 2, latitude: 30, longitude: -40)) == nil, "mid-Atlantic")
        #expect(map.tiles(level: 2, region: MapRegion(minLatitude: 30, maxLatitude: 31, minLongitude: -41, maxLongitude: -40)).isEmpty)
    }

    @Test func tilesAcrossTheAntimeridianAreShiftedOntoTheView() throws {
        let map = try Self.map()
        // Fiji's Taveuni straddles 180°: a view from 179.5°E to 180.5°E (−179.5°).
        let tiles = map.tiles(level: 2, region: MapRegion(minLatitude: -17, maxLatitude: -16.5, minLongitude: 179.5, maxLongitude: 180.5))
        #expect(tiles.contains { $0.shift == 0 } && tiles.contains { $0.shift == 36000 })
    }

    @Test func theCacheKeepsToItsBudget() throws {
        let map = try Self.map(cacheBudget: 200_000)
        for column in 0..<40 {
            _ = map.tiles(level: 2, region: MapRegion(minLatitude: 46, maxLatitude: 48, minLongitude: Double(column) * 0.5, maxLongitude: Double(column) * 0.5 + 0.4))
        }
        #expect(map.cache.byteCount <= 200_000)
        #expect(map.cache.count > 0)
    }

    @Test func aMissingFileIsAnErrorWithANote() {
        #expect(throws: DetailMapFile.OpenError.cannotOpen(path: "/nonexistent/detail.otmd")) {
            try DetailMapFile(path: "/nonexistent/detail.otmd")
        }
        #expect(DetailMapFile.OpenError.cannotOpen(path: "/x").userMessage.contains("built-in map"))
    }

    @Test func aForeignFileIsRefused() throws {
        try Self.withFile(Array("PNG is not a map, not at all, really".utf8)) { path in
            #expect(throws: DetailMapFile.OpenError.notADetailMap(path: path)) { try DetailMapFile(path: path) }
        }
        // The right magic, but a level whose index lies past the end.
        var bytes = DetailMapFile.magic + [1, 0, 0, 0, 0, 0, 0, 0]
        for value: UInt32 in [1000, 500_000, 4096, 10, 999_999, 0, 0, 0] {
            bytes += withUnsafeBytes(of: value.littleEndian) { Array($0) }
        }
        try Self.withFile(bytes) { path in
            #expect(throws: DetailMapFile.OpenError.notADetailMap(path: path)) { try DetailMapFile(path: path) }
        }
    }

    @Test func truncatedTileBytesDoNotDecode() {
        let bytes: [UInt8] = [0, 1, 200]  // one ring of 200 points, and nothing after
        bytes.withUnsafeBytes { raw in
            #expect(DetailTile(bytes: raw, west: 0, south: 0, tileDegrees: 0.5, steps: 4096) == nil)
        }
    }

    @Test func withoutTheFileTheMapIsTheBuiltInOne() throws {
        var view = Viewport(width: 60, height: 30, centerLatitude: 46.45, centerLongitude: 6.55)
        view.setZoom(view.worldDegreesPerColumn / 0.0016)
        let builtIn = MapRenderer(detailMap: nil)
        #expect(builtIn.detailLevel(for: view) == nil)
        #expect(builtIn.layers(view).rivers.allSatisfy { $0 == 0 })
        // Natural Earth has no lakes: Lake Geneva is land there.
        let cell = try #require(builtIn.render(view).grid[30, 15])
        #expect(cell.style == .land || cell.style == .coast)
    }

    @Test func theWorldViewDoesNotReadTheDetailedMap() throws {
        let renderer = MapRenderer(detailMap: try Self.map())
        #expect(renderer.detailLevel(for: Viewport.world(width: 200, height: 60)) == nil)
        var continent = Viewport(width: 200, height: 60, centerLatitude: 48, centerLongitude: 10)
        continent.setZoom(8)
        #expect(renderer.detailLevel(for: continent) == nil)
    }
}
