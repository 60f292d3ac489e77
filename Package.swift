// swift-tools-version:6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Invoices",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "invoices", targets: ["InvoicesCLI"]),
        .library(name: "InvoicesCore", targets: ["InvoicesCore"]),
        .library(name: "InvoicesStore", targets: ["InvoicesStore"]),
        .library(name: "InvoicesReport", targets: ["InvoicesReport"]),
        .library(name: "InvoicesSite", targets: ["InvoicesSite"]),
        .library(name: "InvoicesPublish", targets: ["InvoicesPublish"]),
    ],
    dependencies: [
        // Core Data's nested object contexts on Linux (Packages/ObjectContexts).
        .package(path: "Packages/ObjectContexts"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The CLI: `invoices serve` (HTTP on loopback) and `invoices.yaml` (project configuration).
        // Its default traits add swift-configuration (a `ConfigReader` initializer we do not use) to every build, and
        // two traits' `-D` flags come in a random order each time SwiftPM plans the build, so Hummingbird's modules
        // recompiled on a `swift test` after a `swift build`: one trait, named (docs/performance.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Already dependencies of hummingbird; named so the CLI can import them.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // serve refuses absolute-form targets right after NIO's HTTP decoder (Hummingbird keeps only the path).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Debian's libcmark-dev (ships libcmark.pc).
        .systemLibrary(name: "Ccmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // Debian's libcrypt-dev (libxcrypt: bcrypt for htpasswd files) and libssl-dev (libcrypto: SHA-256, HMAC).
        .systemLibrary(name: "Cxcrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "COpenSSLCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Debian's libpq-dev: libpq, the PostgreSQL project's client library (ships libpq.pc).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // Debian's libqpdf-dev: the e-invoice attached to a Factur-X/ZUGFeRD PDF.
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        // Debian's libqrencode-dev: QR code symbols for the EPC payment codes on statements.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // `invoices publish`: release folders, rsync over SSH, the atomic switch, htpasswd, server snippets, client links.
        .target(name: "InvoicesPublish", dependencies: ["InvoicesCore", "Cxcrypt", "COpenSSLCrypto"], swiftSettings: upcoming),
        // Money, currencies, calendar dates, the Sendable snapshots of the books, and the Client/Invoice model.
        .target(name: "InvoicesCore", dependencies: [.product(name: "ObjectContexts", package: "ObjectContexts")], swiftSettings: upcoming),
        // SQLite store: schema, loading into snapshots, the sample generator.
        .target(
            name: "InvoicesStore",
            dependencies: [
                "InvoicesCore", .product(name: "ObjectContexts", package: "ObjectContexts"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: upcoming
        ),
        // `invoices import`: reads CSV/JSON exports into a validated batch and writes it in one transaction.
        .target(
            name: "InvoicesImport",
            dependencies: [
                "CQPDF", "InvoicesCore", "InvoicesStore", "InvoicesPostgres", .product(name: "ObjectContexts", package: "ObjectContexts"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: upcoming
        ),
        // Stores on a PostgreSQL server through libpq: the DDL, the one-transaction read (binary COPY) into the same
        // typed tables, the writable store import uses, and serve's change polling.
        .target(
            name: "InvoicesPostgres",
            dependencies: [
                "CLibPQ", "InvoicesCore", "InvoicesStore", .product(name: "ObjectContexts", package: "ObjectContexts"),
            ],
            swiftSettings: upcoming
        ),
        // Pure value code: totals per client, currency and month; aging.
        .target(name: "InvoicesReport", dependencies: ["InvoicesCore"], swiftSettings: upcoming),
        // Markdown (the only importer of Ccmark), templates, escaping, the site writer.
        .target(
            name: "InvoicesSite",
            dependencies: [
                "Ccmark", "CQRencode", "InvoicesCore", "InvoicesReport",
                .product(name: "Mustache", package: "swift-mustache"),
                // The translation tables (i18n/*.yaml).
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: upcoming,
            plugins: ["EmbedTemplatesPlugin"]
        ),
        // The build pipeline (load, totals, render, write) shared by the CLI's commands.
        .target(
            name: "InvoicesApp",
            dependencies: [
                "InvoicesCore", "InvoicesStore", "InvoicesPostgres", "InvoicesReport", "InvoicesSite",
                .product(name: "ObjectContexts", package: "ObjectContexts"),
            ],
            swiftSettings: upcoming
        ),
        // Fixture builders shared by the test targets.
        .target(
            name: "InvoicesTesting",
            dependencies: ["InvoicesCore", "InvoicesStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: upcoming
        ),
        // `invoices serve`: Hummingbird's FileMiddleware over the output folder, the 404 page and live reload.
        .target(
            name: "InvoicesServe",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "InvoicesCLI",
            dependencies: [
                "InvoicesCore", "InvoicesStore", "InvoicesReport", "InvoicesSite", "InvoicesApp", "InvoicesImport", "InvoicesServe",
                "InvoicesPublish", "InvoicesPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Embeds Templates/ (the one source of the default templates) into the InvoicesSite module.
        .executableTarget(name: "EmbedTemplatesTool", path: "Sources/EmbedTemplatesTool"),
        .plugin(name: "EmbedTemplatesPlugin", capability: .buildTool(), dependencies: ["EmbedTemplatesTool"]),

        .testTarget(name: "InvoicesCoreTests", dependencies: ["InvoicesCore", "InvoicesStore", "InvoicesTesting"], swiftSettings: upcoming),
        .testTarget(
            name: "InvoicesStoreTests",
            dependencies: ["InvoicesStore", "InvoicesTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "InvoicesReportTests",
            dependencies: ["InvoicesReport", "InvoicesStore", "InvoicesApp", "InvoicesTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "InvoicesSiteTests",
            dependencies: ["InvoicesSite", "InvoicesStore", "InvoicesReport", "InvoicesTesting"],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "InvoicesImportTests",
            dependencies: [
                "InvoicesImport", "InvoicesStore", "InvoicesReport", "InvoicesTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: upcoming
        ),
        .testTarget(name: "InvoicesCLITests", dependencies: ["InvoicesTesting", "InvoicesCore"], swiftSettings: upcoming),
        // `serve`'s routes in process, asking the router's responder directly (no socket, no binary, no HTTP client:
        // HummingbirdTesting would bring AsyncHTTPClient and two copies of BoringSSL into the test build).
        .testTarget(
            name: "InvoicesServeTests",
            dependencies: [
                "InvoicesServe", "InvoicesSite", "InvoicesTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Publishing against real sshd and nginx on loopback (started and stopped by the tests).
        // Stores on a real PostgreSQL server (Debian's postgresql), started on loopback and stopped by the tests.
        .testTarget(
            name: "InvoicesPostgresTests",
            dependencies: ["InvoicesPostgres", "InvoicesStore", "InvoicesApp", "InvoicesTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: upcoming
        ),
        .testTarget(name: "InvoicesPublishTests", dependencies: ["InvoicesPublish", "InvoicesTesting"], swiftSettings: upcoming),
        // The object contexts' own tests, in this package's test bundle too: `make test` runs them with the rest
        // instead of building Packages/ObjectContexts a second time in its own .build (docs/performance.md, "make test
        // on a fresh machine"). `make test-tsan` still runs them from their package, under the thread sanitizer.
        .testTarget(
            name: "ObjectContextsTests", dependencies: [.product(name: "ObjectContexts", package: "ObjectContexts")],
            path: "Packages/ObjectContexts/Tests/ObjectContextsTests", swiftSettings: upcoming
        ),
    ],
    swiftLanguageModes: [.v6]
)
