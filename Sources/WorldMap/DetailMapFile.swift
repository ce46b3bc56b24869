import ResidentPages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The detailed map file (`MapData/detail.otmd`, written by scripts/data/build_detail.py, laid
/// out in Docs/MapData.md), mapped read-only: the kernel pages in only the tiles that are read,
/// so a view costs its own tiles and never the whole file.
final class DetailMapFile: @unchecked Sendable {
    /// One level of detail: a grid of square tiles and the index of the tiles that hold anything.
    struct Level: Sendable {
        /// The Douglas–Peucker tolerance the level was simplified with, in degrees.
        let tolerance: Double
        /// A tile's side in degrees.
        let tileDegrees: Double
        /// Quantization steps across a tile: a coordinate is 0…steps from the tile's south-west corner.
        let steps: Int
        let columns: Int
        let rows: Int
        let tileCount: Int
        let indexOffset: Int
    }

    /// Why a file could not be used; the map then falls back to the built-in Natural Earth land.
    enum OpenError: Error, Equatable {
        case cannotOpen(path: String)
        case notADetailMap(path: String)

        var userMessage: String {
            switch self {
            case .cannotOpen(let path): "The detailed map data could not be read (\(path)); showing the built-in map."
            case .notADetailMap(let path): "\(path) is not a detailed map file; showing the built-in map."
            }
        }
    }

    static let magic: [UInt8] = Array("OTMDTL01".utf8)

    let path: String
    let levels: [Level]
    private let base: UnsafeRawPointer
    private let size: Int

    init(path: String) throws(OpenError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 16 else { throw .notADetailMap(path: path) }
        let size = Int(info.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw .cannotOpen(path: path)
        }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        guard let levels = Self.readLevels(bytes) else {
            munmap(mapped, size)
            throw .notADetailMap(path: path)
        }
        self.path = path
        self.base = UnsafeRawPointer(mapped)
        self.size = size
        self.levels = levels
        releaseResidentPages()  // the header's pages, read once
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// The header's levels, or nil when the magic, a level's numbers or its index do not fit the file.
    private static func readLevels(_ bytes: UnsafeRawBufferPointer) -> [Level]? {
        guard bytes.count >= 16, Array(bytes[0..<8]) == magic else { return nil }
        let count = Int(bytes.loadLittleEndianUInt32(at: 8))
        guard count > 0, count <= 16, 16 + count * 32 <= bytes.count else { return nil }
        var levels: [Level] = []
        for index in 0..<count {
            let at = 16 + index * 32
            let tolerance = Double(bytes.loadLittleEndianUInt32(at: at)) / 1e6
            let tile = Double(bytes.loadLittleEndianUInt32(at: at + 4)) / 1e6
            let steps = Int(bytes.loadLittleEndianUInt32(at: at + 8))
            let tiles = Int(bytes.loadLittleEndianUInt32(at: at + 12))
            let indexOffset = Int(bytes.loadLittleEndianUInt32(at: at + 16))
            guard tile > 0, tile <= 90, steps > 0, indexOffset + tiles * 12 <= bytes.count else { return nil }
            levels.append(
                Level(
                    tolerance: tolerance, tileDegrees: tile, steps: steps, columns: Int((360 / tile).rounded()),
                    rows: Int((180 / tile).rounded()), tileCount: tiles, indexOffset: indexOffset))
        }
        return levels
    }

    /// The bytes of a tile (`row * columns + column`), or nil when the tile holds nothing (open
    /// sea) or its entry points outside the file. Binary search in the level's sorted index.
    func tileBytes(level: Int, key: Int) -> UnsafeRawBufferPointer? {
        let bytes = UnsafeRawBufferPointer(start: base, count: size)
        let level = levels[level]
        var (low, high) = (0, level.tileCount - 1)
        while low <= high {
            let middle = (low + high) / 2
            let entry = level.indexOffset + middle * 12
            let found = Int(bytes.loadLittleEndianUInt32(at: entry))
            if found == key {
                let offset = Int(bytes.loadLittleEndianUInt32(at: entry + 4))
                let length = Int(bytes.loadLittleEndianUInt32(at: entry + 8))
                guard length > 0, offset + length <= size else { return nil }
                return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
            }
            if found < key { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}

extension DetailMapFile {
    /// Gives back every mapped page read so far (the index's binary searches, the tiles decoded,
    /// and the neighbours the kernel mapped with them): between frames the file holds no
    /// resident memory; the decoded tiles are in the cache.
    func releaseResidentPages() {
        ResidentPages.giveBack(UnsafeRawBufferPointer(start: base, count: size))
    }
}

extension UnsafeRawBufferPointer {
    func loadLittleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
