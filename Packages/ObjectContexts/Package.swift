// swift-tools-version:6.0
import PackageDescription

// Core Data's nested object contexts on Linux. A package of its own, with no dependencies: it knows nothing of
// invoices, and its tests (also under the thread sanitizer) build in seconds.
let package = Package(
    name: "ObjectContexts",
    platforms: [.macOS(.v14)],
    products: [.library(name: "ObjectContexts", targets: ["ObjectContexts"])],
    targets: [
        .target(name: "ObjectContexts", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "ObjectContextsTests", dependencies: ["ObjectContexts"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
