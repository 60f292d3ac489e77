import Foundation
internal import InvoicesCore

extension SiteBuilder.Inputs {
    /// What the exports' units (``ExportFiles/Part``, each a job of its own) share in a build: the previous build's
    /// index of pieces (``ExportPieces``), read once; the journals' runs, worked out once for `books.journal`,
    /// `books.beancount` and the DATEV files (the first unit to ask works them out, one asking meanwhile waits for
    /// it); and each written file's index, which the build writes beside the output once every unit is written
    /// (``SiteBuilder/write(to:previous:changes:progress:)``). Shared by the copies of the ``SiteBuilder/Inputs`` it
    /// was made with, like ``Memo``.
    final class ExportValues: @unchecked Sendable {
        private let lock = NSLock()
        private let indexLock = NSLock()
        private let runsLock = NSLock()
        private var previous: ExportPieces??
        private var runs: (runs: [Range<Int>], keys: [UInt64])?
        private var written = ExportPieces()
        private var writtenAny = false

        /// The previous build's index at `url`, read by the first unit to ask; nil when there is none or it does
        /// not parse (every piece is then made).
        func previousIndex(_ url: URL) -> ExportPieces? {
            indexLock.withLock {
                if let previous { return previous }
                let read = ExportPieces.read(url)
                previous = .some(read)
                return read
            }
        }

        /// The journals' runs and their keys (``SiteBuilder/Inputs/journalRuns(_:_:)``), `make()`'s the first time.
        func journalRuns(_ make: () -> (runs: [Range<Int>], keys: [UInt64])) -> (runs: [Range<Int>], keys: [UInt64]) {
            runsLock.withLock {
                if let runs { return runs }
                let made = make()
                runs = made
                return made
            }
        }

        /// Records the pieces of the file at `path` a unit wrote.
        func add(_ path: String, _ index: ExportPieces.FileIndex) {
            lock.withLock {
                written.files[path] = index
                writtenAny = true
            }
        }

        /// The index for the next build when a unit wrote an export (nil when every export unit was reused, and the
        /// previous index still holds): the files written, and the previous index's entries of the files of
        /// `manifest` no unit wrote (reused whole; an entry of a file that is not as the index says is never used,
        /// ``ExportPieces/Source``). The same whichever order the units finished in.
        func index(for manifest: SiteManifest) -> ExportPieces? {
            let previous = indexLock.withLock { self.previous ?? nil }
            return lock.withLock {
                guard writtenAny else { return nil }
                var index = written
                if let previous {
                    let paths = Set(manifest.units.values.lazy.flatMap(\.files).map(\.path))
                    for (path, file) in previous.files where index.files[path] == nil && paths.contains(path) { index.files[path] = file }
                }
                return index
            }
        }
    }
}
