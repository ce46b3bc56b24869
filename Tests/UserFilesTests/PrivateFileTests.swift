import Foundation
import Testing
import UserFiles

#if canImport(Glibc)
import Glibc
#endif

/// `PrivateFile`: 0600, nothing at the path opened or written through, an
/// existing path replaced only when asked, nothing left behind.
@Suite struct PrivateFileTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("private-file-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func mode(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func aNewFileIsPrivateAndWhole() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/export.json"
        let file = try PrivateFile(at: path, replacing: false)
        try file.write(Data("half".utf8))
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the path until commit")
        try file.write(Data(" and the rest".utf8))
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "half and the rest")
        #expect(try mode(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["export.json"])
    }

    @Test func whatIsThereIsKeptUnlessReplacing() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/someone-elses"
        try "keep".write(toFile: target, atomically: false, encoding: .utf8)
        let link = folder + "/out.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let dangling = folder + "/dangling.png"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/nowhere")
        for path in [target, link, dangling] {
            #expect(throws: PrivateFileError.exists(path)) { try PrivateFile.write(Data("x".utf8), to: path, replacing: false) }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"), "a dangling link is not followed")
        try PrivateFile.write(Data("new".utf8), to: link, replacing: true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep", "replaced, not written through")
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: link, encoding: .utf8) == "new")
        #expect(try mode(link) == 0o600)
    }

    /// Two writers to one free path: the first to commit gets it, the other is refused rather
    /// than replacing it; an uncommitted file leaves nothing behind.
    @Test func aFileThatAppearsMeanwhileIsNotReplaced() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/race.csv"
        do {
            let first = try PrivateFile(at: path, replacing: false)
            let second = try PrivateFile(at: path, replacing: false)
            try first.write(Data("first".utf8))
            try second.write(Data("second".utf8))
            try first.commit()
            #expect(throws: PrivateFileError.exists(path)) { try second.commit() }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
            _ = try PrivateFile(at: folder + "/abandoned", replacing: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["race.csv"])
    }
}
