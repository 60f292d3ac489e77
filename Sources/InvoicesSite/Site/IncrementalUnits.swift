/// What keeps a build incremental, unit by unit: a page kind's unit (its ``PageKind/key``) whose inputs have the
/// fingerprint the previous build's manifest recorded, and whose files are still there as recorded, is not
/// rendered: its files are hard-linked into the new site (``SiteStaging/reuse(_:from:)``).
struct IncrementalUnits: Sendable {
    /// The fingerprints of what each kind shows (``SiteBuilder/inputs``).
    let inputs: SiteBuilder.Inputs
    /// The previous build's manifest; nil for a full build.
    let previous: SiteManifest?

    /// A page kind's unit: the previous build's files, when its inputs are unchanged and its files intact (they are
    /// hard-linked into the new site); else its files, rendered into `staging`.
    func unit(of kind: any PageKind, into staging: SiteStaging) throws(SiteWriteError) -> SiteManifest.Unit {
        let kind = kind.prepared(with: inputs)
        let fingerprint = kind.inputs(inputs)
        if let recorded = previous?.units[kind.key], recorded.inputs == fingerprint, let files = staging.reuse(recorded.files, from: previous) {
            return SiteManifest.Unit(inputs: fingerprint, files: files)
        }
        if let pieced = kind as? any PiecedPageKind {
            return SiteManifest.Unit(inputs: fingerprint, files: try pieced.write(to: staging, inputs: inputs, previous: previous))
        }
        return SiteManifest.Unit(inputs: fingerprint, files: try kind.write(to: staging))
    }
}

/// A kind whose files are made of pieces a build can take from the previous build's files (``ExportPieces``): it
/// is written with the units' inputs and the previous manifest.
protocol PiecedPageKind: PageKind {
    func write(to staging: SiteStaging, inputs: SiteBuilder.Inputs, previous: SiteManifest?) throws(SiteWriteError) -> [SiteManifest.File]
}
