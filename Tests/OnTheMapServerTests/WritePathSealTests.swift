import Foundation
import Launcher
import Testing

/// The compiler keeps the write path's rule (Docs/Access.md, "What the compiler keeps"): code
/// of this package outside ClassRules that builds a `Caller`, builds a `WritePermit`, calls a
/// write of `ClassWrites` without one, or reaches the `WritableStorage` inside a `ClassWrites`
/// does not compile; nor does code with a plain `import ServerStorage` that names
/// `WritableStorage`, casts a storage to `SQLiteStorage` to write through it, or opens a storage
/// that writes (all `@_spi(WritePath)`). Each probe below is type-checked by `swiftc` as another
/// target of this package would be (the same `-package-name`, module paths and module maps
/// SwiftPM gave ClassRules, read from the build's `debug.yaml`), against the modules this build
/// made. The control probe uses only what other targets may use and must compile, so a failure
/// is the rule's and not the harness's; each forbidden probe must fail, every error it gets being
/// the access error (or the missing permit) it expects, one of them naming what it tried. A probe
/// that the SPI alone forbids must compile once its file imports ServerStorage (and
/// OnTheMapServerPostgres) with `@_spi(WritePath)`, as the files that may write do, so it fails
/// for the SPI and not for a mistake of its own.
@Suite struct WritePathSealTests {
    struct Probe: Sendable, CustomTestStringConvertible {
        var name: String
        var code: String
        /// nil: must compile; else a phrase every error must contain.
        var error: String?
        /// What one of the errors must name.
        var names = ""
        /// Whether the code compiles with `@_spi(WritePath)` on its imports of ServerStorage and
        /// OnTheMapServerPostgres (the SPI is all that forbids it).
        var spiAllows = false
        /// The target whose compiler flags (module paths and maps) the probe is type-checked
        /// with: one that can import every module the probe does.
        var asTarget = "ClassRules"
        var testDescription: String { name }
    }

    static let header = """
        import ClassRules
        import ServerStorage

        """

    static let control = Probe(
        name: "control: what other targets may use",
        code: """
            func use(_ writes: ClassWrites, _ storage: any ServerStorage) async throws {
                let row = StoredLocation(objectId: "x", uniqueKey: "ada", createdAt: "", updatedAt: "")
                _ = Access.maySee(row, Caller.anonymous)
                _ = Caller.withoutSession(openWrites: false).accountKey
                _ = Caller.operatorAtCommandLine()
                let session = try await Caller.ofLiveSession(idHash: "h", in: storage, now: 0)
                let permit = try Access.permit(.deleteLocation(objectId: "x"), by: session?.caller ?? .anonymous)
                try await writes.deleteLocation(objectId: "x", permit)
            }
            func open(_ location: DatabaseLocation, _ postgres: PostgresOpener?) async throws -> ClassWrites {
                let limits = FairShareLimits(maxRowsPerAccount: 100, maxWritesPerMinute: 30)
                let (storage, writes) = try await ClassWrites.open(
                    location, queryTimeout: .seconds(1), postgres: postgres, logger: .init(label: "probe"), limits: limits)
                _ = try await storage.locationCount()
                return writes
            }
            """,
        error: nil)

    static let forbidden = [
        Probe(
            name: "builds an account's caller",
            code: #"let caller = Caller.account(key: "mod", role: .moderator)"#,
            error: "is inaccessible due to 'internal' protection level", names: "'account'"),
        Probe(
            name: "builds a caller from its kind",
            code: "let caller = Caller(.openWriter)",
            error: "is inaccessible due to 'internal' protection level", names: "'Caller' initializer"),
        Probe(
            name: "builds a permit",
            code: "let permit = WritePermit(act: .fillSynthetic, caller: .anonymous)",
            error: "is inaccessible due to 'internal' protection level", names: "'WritePermit' initializer"),
        Probe(
            name: "writes without a permit",
            code: "func write(_ writes: ClassWrites) async throws { try await writes.fillSynthetic(count: 1) }",
            error: "missing argument for parameter #2 in call", names: "missing argument"),
        Probe(
            name: "reaches the storage that writes",
            code: "func reach(_ writes: ClassWrites) { _ = writes.storage }",
            error: "is inaccessible due to 'private' protection level", names: "'storage'"),
        Probe(
            name: "names the storage that writes",
            code: "func hold(_ storage: any WritableStorage) {}",
            error: "cannot find type 'WritableStorage' in scope", names: "'WritableStorage'", spiAllows: true),
        Probe(
            name: "casts a storage to SQLiteStorage to insert",
            code: """
                func insert(_ storage: any ServerStorage, _ row: StoredLocation) async throws {
                    if let sqlite = storage as? SQLiteStorage { try await sqlite.insert(row) }
                }
                """,
            error: "cannot find type 'SQLiteStorage' in scope", names: "'SQLiteStorage'", spiAllows: true),
        Probe(
            name: "casts a storage to SQLiteStorage to delete",
            code: """
                func delete(_ storage: any ServerStorage) async throws {
                    if let sqlite = storage as? SQLiteStorage {
                        _ = try await sqlite.delete(objectId: "x", owner: "ada", audit: AuditEntry?.none)
                    }
                }
                """,
            error: "cannot find type 'SQLiteStorage' in scope", names: "'SQLiteStorage'", spiAllows: true),
        Probe(
            name: "opens a database to write",
            code: """
                func open(_ location: DatabaseLocation, _ row: StoredLocation) async throws {
                    let storage = try await location.open(queryTimeout: .seconds(1), postgres: nil, logger: .init(label: "probe"))
                    try await storage.insert(row)
                }
                """,
            error: "is inaccessible due to '@_spi' protection level", names: "'open'", spiAllows: true),
        Probe(
            name: "opens a PostgreSQL database to write",
            code: """
                func open(_ opener: PostgresOpener, _ row: StoredLocation) async throws {
                    let storage = try opener.open(.init(fileURLWithPath: "/"), .seconds(1), .init(label: "probe"))
                    try await storage.insert(row)
                }
                """,
            error: "is inaccessible due to '@_spi' protection level", names: "'open'", spiAllows: true),
        Probe(
            name: "makes a PostgreSQL opener",
            code: "let opener = PostgresOpener { _, _, _ in fatalError() }",
            error: "is inaccessible due to '@_spi' protection level", names: "'PostgresOpener' initializer", spiAllows: true),
        Probe(
            name: "runs SQL on PostgreSQL, as onthemap-server",
            code: """
                import Foundation
                import OnTheMapServerPostgres
                func run(_ url: URL) async throws { try await PostgresAdministration.execute("SELECT 1", url: url) }
                """,
            error: "cannot find 'PostgresAdministration' in scope", names: "'PostgresAdministration'", spiAllows: true,
            asTarget: "onthemap-server"),
    ]

    @Test func theControlProbeCompiles() async throws {
        let result = try await Self.typecheck(Self.control)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
    }

    @Test(arguments: forbidden) func aForbiddenProbeDoesNotCompile(_ probe: Probe) async throws {
        let result = try await Self.typecheck(probe)
        let errors = result.stderr.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        #expect(result.status != 0, "it compiled")
        #expect(!errors.isEmpty && errors.allSatisfy { $0.contains(probe.error ?? "") }, "\(result.stderr)")
        #expect(errors.contains { $0.contains(probe.names) }, "\(result.stderr)")
    }

    @Test(arguments: forbidden.filter(\.spiAllows)) func aProbeTheSPIForbidsCompilesWithTheSPIImport(_ probe: Probe) async throws {
        let result = try await Self.typecheck(probe, spi: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
    }

    /// `swiftc -typecheck` of `probe` as a target of this package (module name `SealProbe`); with
    /// `spi`, its file imports ServerStorage and OnTheMapServerPostgres with `@_spi(WritePath)`.
    static func typecheck(_ probe: Probe, spi: Bool = false) async throws -> LaunchedProcess.Result {
        let (swiftc, flags) = try compilerFlags(of: probe.asTarget)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Probe.swift")
        var lines = (header + probe.code).components(separatedBy: "\n")
        if spi {
            let sealed = ["import ServerStorage", "import OnTheMapServerPostgres"]
            lines = lines.map { sealed.contains($0) ? "@_spi(WritePath) " + $0 : $0 }
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        return try await LaunchedProcess.run(
            URL(fileURLWithPath: swiftc), ["-typecheck", "-diagnostic-style=llvm", "-module-name", "SealProbe"] + flags + [file.path])
    }

    /// The compiler and the flags SwiftPM compiled `target` with that say where modules are and
    /// which package it is in (`-I`, `-Xcc`, `-target`, `-package-name`, `-swift-version`,
    /// `-module-cache-path`, `-D`), from the `debug.yaml` of the build this test bundle is part of
    /// (found above the bundle; else the package's `.build`).
    static func compilerFlags(of target: String) throws -> (swiftc: String, flags: [String]) {
        var candidates: [URL] = []
        var directory = Bundle.main.bundleURL
        for _ in 0..<5 {
            directory = directory.deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent("debug.yaml"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug.yaml"))
        guard let plan = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw PlanError(description: "no debug.yaml above \(Bundle.main.bundleURL.path) or in \(root.path)/.build")
        }
        let lines = try String(contentsOf: plan, encoding: .utf8).components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \"C.\(target)-") && $0.hasSuffix("-debug.module\":") }),
            let line = lines[start...].first(where: { $0.hasPrefix("    args: ") })
        else { throw PlanError(description: "no \(target) compile in \(plan.path)") }
        let args = try JSONDecoder().decode([String].self, from: Data(line.dropFirst("    args: ".count).utf8))
        var flags: [String] = []
        var index = 1
        while index < args.count {
            let arg = args[index]
            if ["-I", "-Xcc", "-target", "-package-name", "-swift-version", "-module-cache-path"].contains(arg), index + 1 < args.count {
                flags += [arg, args[index + 1]]
                index += 2
                continue
            }
            // -D, and a system library's header path (pkg-config's, joined: -I/usr/include/postgresql).
            if arg.hasPrefix("-D") || (arg.hasPrefix("-I") && arg.count > 2) { flags.append(arg) }
            index += 1
        }
        return (args[0], flags)
    }

    struct PlanError: Error, CustomStringConvertible { var description: String }
}
