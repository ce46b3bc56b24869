// swift-tools-version:6.1
// onthemap — Copyright 2026 the onthemap authors. Licensed under the Apache License, Version 2.0
// (LICENSE). The bundled map and gazetteer data keep their own terms (ATTRIBUTION.md).
import PackageDescription

let package = Package(
    name: "onthemap",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "onthemap", targets: ["onthemap"]),
        .executable(name: "onthemap-server", targets: ["onthemap-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
    ],
    targets: [
        // MARK: - Shared

        /// Wire models shared by the client and the server.
        .target(name: "OnTheMapModels"),

        /// Cleans network text for terminals and measures it in columns.
        .target(name: "SafeText"),

        /// `PrivateFile`: a file written for the user (an export, a picture), 0600, O_EXCL and
        /// O_NOFOLLOW beside its target, then put in place; an existing one replaced only when asked.
        .target(name: "UserFiles"),

        /// HTTP with a byte cap and one deadline for the whole exchange: `http://` over a plain socket,
        /// `https://` through the system's libcurl, loaded on first use (CCurl).
        .target(name: "BoundedHTTP", dependencies: ["CCurl"]),

        /// libcurl's easy interface resolved with dlopen on first use: its headers, nothing linked.
        .target(name: "CCurl"),

        /// `ChildProcess`: a program started with posix_spawn (no shell, arguments as an array, only the
        /// descriptors it is given), reaped by a thread of its own. The app's link opener and every
        /// test's processes start through it; nothing uses Foundation's `Process`.
        .target(name: "Spawn", dependencies: ["CSpawn"]),
        /// posix_spawn's GNU extensions (closefrom, chdir, a new session), which Swift's Glibc module hides.
        .target(name: "CSpawn"),

        /// The demo class's places and account: seeded by the server, read by the map and geocoder tests.
        .target(name: "DemoClass"),

        // MARK: - Client

        /// The one API client: BoundedHTTP + Codable, both dialects, typed errors.
        .target(name: "APIClient", dependencies: ["BoundedHTTP", "OnTheMapModels", "CNettle"]),

        // MARK: - Map and geocoder

        /// `ResidentPages.giveBack`: read-only data (a mapped file, a literal in the binary) that a
        /// program has read and will not need soon leaves resident memory.
        .target(name: "ResidentPages"),

        /// Equirectangular world map: land (Natural Earth), viewport, Braille/ASCII cells, pins. Pure, no curses.
        .target(
            name: "WorldMap",
            dependencies: ["ResidentPages"],
            exclude: ["ATTRIBUTION.md", "Generated/LabelFontGlyphs-OFL.txt"],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),

        /// The Geocoder protocol and its implementations: the offline gazetteer (GeoNames), Nominatim, Photon.
        .target(name: "Geo", dependencies: ["BoundedHTTP", "ResidentPages"], exclude: ["ATTRIBUTION.md"]),

        /// libpng's simplified API, resolved with dlopen on the first picture (libpng-dev's header only).
        .target(name: "CPNG"),
        /// The map as PNG files (`onthemap map --format png`), through CPNG.
        /// libchafa's terminal database, resolved with dlopen when `graphics = auto` asks it (no header needed).
        .target(name: "CChafa"),
        .target(name: "MapPicture", dependencies: ["CPNG", "CChafa", "WorldMap"]),

        /// Timings and memory of the map and the geocoder, with budgets (`make bench`, RELEASE_FLAGS).
        .executableTarget(
            name: "onthemap-bench", dependencies: ["WorldMap", "Geo", "MapPicture", "TerminalUI", "OnTheMapModels", "ViewModels"]),
        /// Hummingbird alone serving a file's bytes: the framework's floor in `make bench-server`.
        .executableTarget(
            name: "onthemap-bench-http",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),

        .testTarget(
            name: "WorldMapTests", dependencies: ["WorldMap", "DemoClass", "AppTestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "ResidentPages", "DemoClass", "AppTestSupport", "StandIn"]),
        .testTarget(name: "ResidentPagesTests", dependencies: ["ResidentPages"]),
        .testTarget(name: "MapPictureTests", dependencies: ["MapPicture", "WorldMap", "TerminalUI", "DemoClass", "Launcher"]),

        // MARK: - Server

        /// A password typed with echo off, or the first line of stdin: `onthemap login` and
        /// `onthemap-server user add|reset-password`.
        .target(name: "PasswordInput"),

        /// libnettle: the server core's SHA-256 and HMAC-SHA256, and the LiveQuery client's check of
        /// Sec-WebSocket-Accept (SHA-1) — no hand-written cryptography; the app's built-in server
        /// links the core, and the app compiles no BoringSSL.
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),

        /// What the server keeps: the stored types, the `ServerStorage` protocol and the
        /// `WritableStorage` one (its writes, for the write path alone: `@_spi(WritePath)`, like
        /// `SQLiteStorage` and the openers), SQLite storage, the list's JSON, the query compiler,
        /// the change log's SQL and its follower. No HTTP.
        .target(
            name: "ServerStorage",
            dependencies: [
                "OnTheMapModels", "SafeText",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API, for the progress handler that bounds a query's time.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),

        /// The one write path and its rule: `Access` (who may see and write a row; the only maker of
        /// a `WritePermit`), `Caller` (built here only: other targets get one through its named
        /// doors), `ClassWrites` (the only holder of a `WritableStorage`; every write takes a
        /// permit; `ClassWrites.open` opens a database for the operator's commands), fair share,
        /// the audit log, `WriteRefusal`, and `AccountRules` (what an account's e-mail, names and
        /// password may be). Logging: what opening a database logs.
        .target(
            name: "ClassRules",
            dependencies: ["ServerStorage", "OnTheMapModels", "SafeText", .product(name: "Logging", package: "swift-log")]),

        /// How an `onthemap-server` runs: `ServerConfiguration` (where it listens and stores, its
        /// policies and limits), LiveQuery's bounds, the login throttle's policy, the login
        /// providers' settings and the `ProviderExchange` they are reached through. Values only:
        /// the API, LiveQuery, the operator's commands and both executables read it.
        .target(
            name: "ServerConfig",
            dependencies: [
                "ClassRules", "ServerStorage", "OnTheMapModels",
                // EventLoopGroup, the threads a configuration may name.
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),

        /// The query language the REST list and LiveQuery share, below both: Parse's `where` read
        /// into a `Predicate` (`WhereParser`), its caps (`WhereLimits`), what a `$regex` and a list
        /// query cost (`RegexCost`, `isExpensive`), and `QueryRefusal`, Parse's code and message.
        .target(name: "ServerQuery", dependencies: ["ServerStorage", "OnTheMapModels"]),

        /// Accounts' passwords and sessions, below the API, LiveQuery and the operator's commands:
        /// `SessionAuthority` (bcrypt behind the process's `HashGate`, sessions issued, found and
        /// ended by their hashes, `SessionSeal`), `InviteCode`, SHA-256 and HMAC-SHA256 through
        /// CNettle, and `AdmissionGate`, the bounded line of the hash gate (and of the API's
        /// expensive-query gate).
        .target(
            name: "ServerSessions",
            dependencies: [
                "ServerConfig", "ClassRules", "ServerStorage", "OnTheMapModels",
                // SHA-256 and HMAC-SHA256 (session hashes and seal, invite codes, Facebook's proof).
                "CNettle",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                // NIO's thread pool, where the hashes run, off the threads that serve requests.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),

        /// The HTTP API: Udacity-style session/users and Parse-style StudentLocation controllers,
        /// callers (`CallerResolver`), the list's parameters and its expensive-query gate, the
        /// trust rules, the connection guards, login providers, request logs and metrics, the
        /// generated OpenAPI document. Reads through `any ServerStorage`, writes through
        /// `ClassWrites`. Only the wiring (OnTheMapServer) imports it.
        .target(
            name: "ServerHTTP",
            dependencies: [
                "ServerConfig", "ServerQuery", "ServerSessions", "ClassRules", "ServerStorage", "BoundedHTTP", "OnTheMapModels",
                "SafeText",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPServerBuilder and ServerChildChannel, for the guard before the upgrade decision.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // HTTPRequestPart/HTTPResponsePart, for the per-connection guard.
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        /// LiveQuery: the protocol's messages, the subscriptions' hub (each event decided by the
        /// rule for the subscriber's current caller) and the socket (NIO's HTTP upgrade and
        /// WebSocket frames, on the REST API's port). The REST API's gate and address rule are
        /// handed in by the wiring.
        .target(
            name: "ServerLiveQuery",
            dependencies: [
                "ServerConfig", "ServerQuery", "ServerSessions", "ClassRules", "ServerStorage", "OnTheMapModels",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),

        /// The operator's layer under `onthemap-server`'s commands: accounts, invites, moderation,
        /// the demo seed, export and import (`ServerDatabase`), backup and restore (`SQLiteBackup`).
        /// Every write through `ClassWrites`, like the API's.
        .target(
            name: "ServerAdmin",
            dependencies: [
                "ServerConfig", "ServerSessions", "ClassRules", "ServerStorage", "OnTheMapModels", "DemoClass", "SafeText", "UserFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        /// The server as one piece: `ServerApplication` opens the storage, hands it to the write
        /// path, builds the router and the LiveQuery socket on one port and follows the change log;
        /// `EmbeddedServer` runs it inside another process (the app's built-in server).
        .target(
            name: "OnTheMapServer",
            dependencies: [
                "ServerAdmin", "ServerLiveQuery", "ServerHTTP", "ServerConfig", "ServerSessions", "ClassRules", "ServerStorage",
                "OnTheMapModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPServerBuilder, for the guard before the upgrade decision.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // DatabaseError, which the error shield logs without its statement.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // HTTPParserError: a request whose framing breaks while its body is read is a 400.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The built-in server's one event-loop thread.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),

        /// libpq, PostgreSQL's own C client (Debian's libpq-dev).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        /// PostgreSQL storage through libpq: linked by `onthemap-server` only, so the terminal app's
        /// built-in server builds and links SQLite alone.
        .target(
            name: "OnTheMapServerPostgres",
            dependencies: [
                "ServerStorage", "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),

        /// `StandInServer`, a scripted HTTP server on loopback (Foundation only): recorded geocoder
        /// answers, a hostile server, the login providers' stand-ins.
        .target(name: "StandIn", dependencies: ["Launcher"], path: "Tests/StandIn"),

        /// `LaunchedProcess`: the tests' one way to start a process (through `ChildProcess`), and the
        /// only reader of its pipes.
        .target(name: "Launcher", dependencies: ["Spawn", "TestPatience"], path: "Tests/Launcher"),

        /// `Patience`: the one hang guard of the tests' waits (why it outlasts a parallel pass).
        .target(name: "TestPatience", path: "Tests/TestPatience"),

        /// A real server on loopback and raw HTTP helpers, for the client and server tests.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "OnTheMapServer", "ServerAdmin", "ServerHTTP", "ServerConfig", "OnTheMapServerPostgres", "StandIn", "Launcher",
                "TestPatience",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServerTestSupport"
        ),

        // MARK: - Terminal app

        /// ncursesw, with a shim for the macros and globals Swift cannot import.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),

        /// libqrencode, for the QR code of a device login's URL.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),

        /// `QRMatrix`, a pure value of dark and light modules, and the one call into libqrencode that makes it.
        .target(name: "QRCode", dependencies: ["CQRencode"]),

        /// The app's state: AppViewModel over login, the locations store, browsing, posting, links. No terminal.
        .target(name: "ViewModels", dependencies: ["APIClient", "Geo", "OnTheMapModels", "SafeText", "Spawn", "WorldMap"]),

        /// Cells, widgets, screens, the key table and the event loop, against a Backend protocol. No curses, no API.
        .target(name: "TerminalUI", dependencies: ["ViewModels", "Geo", "OnTheMapModels", "QRCode", "SafeText", "WorldMap"]),

        /// The settings file (`$XDG_CONFIG_HOME/onthemap/config.toml`, TOML) and the precedence of
        /// flags, environment, file and defaults; `[keys]` overrides applied to the key table.
        .target(
            name: "OnTheMapConfig",
            dependencies: ["TerminalUI", "MapPicture", .product(name: "TOMLKit", package: "TOMLKit")]),

        /// The ncurses Backend: the only target that imports CNcurses.
        .target(name: "TerminalNCurses", dependencies: ["CNcurses", "TerminalUI", "MapPicture"]),

        /// The client side's test doubles and helpers: FakeAPI, FakeGeocoder, sample rows, a test
        /// clock, `eventually` and the one `assertSnapshot`.
        .target(
            name: "AppTestSupport", dependencies: ["APIClient", "Geo", "OnTheMapModels", "ViewModels", "TestPatience"],
            path: "Tests/AppTestSupport"),

        // MARK: - Executables

        .executableTarget(
            name: "onthemap",
            dependencies: [
                "APIClient", "DemoClass", "Geo", "OnTheMapConfig", "OnTheMapModels", "OnTheMapServer", "ServerConfig", "QRCode",
                "SafeText", "TerminalNCurses", "TerminalUI", "ViewModels", "WorldMap", "MapPicture", "PasswordInput",
                "UserFiles", "ResidentPages", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "onthemap-server",
            dependencies: [
                "OnTheMapServer", "ServerAdmin", "ServerConfig", "OnTheMapServerPostgres", "SafeText", "PasswordInput", "UserFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: - Tests

        .testTarget(name: "OnTheMapModelsTests", dependencies: ["OnTheMapModels"]),
        .testTarget(name: "SpawnTests", dependencies: ["Spawn", "Launcher"]),
        .testTarget(name: "UserFilesTests", dependencies: ["UserFiles"]),
        .testTarget(name: "TerminalNCursesTests", dependencies: ["TerminalNCurses"]),
        .testTarget(name: "BoundedHTTPTests", dependencies: ["BoundedHTTP", "StandIn", "Launcher", "TestPatience"]),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"]),
        .testTarget(
            name: "ViewModelsTests",
            dependencies: ["ViewModels", "AppTestSupport", "APIClient", "BoundedHTTP", "Geo", "OnTheMapModels"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "ViewModels", "AppTestSupport", "APIClient", "Geo", "OnTheMapModels"],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "OnTheMapConfigTests",
            dependencies: ["OnTheMapConfig", "TerminalUI", "ViewModels", "AppTestSupport"]),
        .testTarget(
            name: "ServerProcessTests",
            dependencies: [
                "OnTheMapServer", "ServerAdmin", "ServerTestSupport", "StandIn", "Launcher",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "OnTheMapCLITests",
            dependencies: [
                "onthemap", "OnTheMapModels", "AppTestSupport", "ServerTestSupport", "StandIn", "MapPicture", "Launcher",
            ]),
        .testTarget(
            name: "APIClientTests",
            dependencies: ["APIClient", "BoundedHTTP", "OnTheMapModels", "AppTestSupport", "ServerTestSupport", "StandIn", "TestPatience"]),
        .testTarget(
            name: "OnTheMapServerTests",
            dependencies: [
                "OnTheMapServer", "ServerAdmin", "ServerLiveQuery", "ServerHTTP", "ServerConfig", "ServerQuery", "ServerSessions",
                "ClassRules", "ServerStorage", "ServerTestSupport",
                "StandIn", "Launcher", "TestPatience", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ]
)
