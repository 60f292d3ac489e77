/// How a save resolves conflicts.
///
/// A conflict exists for an object this context updated or deleted when the
/// other side (the parent context's current view for a child, the store for a
/// root) no longer matches what this context read: for a child, the row's
/// values differ from this context's snapshot (or the row is gone); for a root,
/// the store row's version differs from the snapshot's version (or it is gone).
/// Inserted objects never conflict. Deleting a row that is already gone is not
/// a conflict. A row deleted on the other side cannot be resurrected: every
/// policy except `.error` drops this context's update of it and the object
/// becomes deleted here too.
public enum MergePolicy: Sendable, Hashable {
    /// Throw `MergeConflictError` listing every conflicting object; nothing is saved. The default.
    case error
    /// Property by property, the other side wins: each property this context
    /// changed is written only if the other side did not change it (relative to
    /// this context's snapshot); everything else takes the other side's value.
    /// A delete here loses against an update there (the object is kept with their values).
    case storeTrump
    /// Property by property, this context wins: properties changed in this
    /// context take this context's values, all others the other side's values.
    /// A delete here wins.
    case objectTrump
    /// This context's whole object state wins: every property (changed or not)
    /// is written with this context's value. A delete here wins.
    case overwrite
    /// This context's changes to conflicting objects are discarded; they take
    /// the other side's values. Non-conflicting changes are still saved.
    case rollback
}

/// What to do with one pending change.
enum Resolution {
    /// Insert the row.
    case insert(RowValues)
    /// Write the row as an update.
    case update(RowValues)
    /// Delete the row.
    case delete
    /// Push nothing; the object now shows `theirs` (`nil`: the row is gone).
    case discard(RowSnapshot?)
}

extension MergePolicy {
    /// The resolution of `change` when there is no conflict.
    static func plain(_ change: PendingChange) -> Resolution {
        switch change.kind {
        case .inserted: return .insert(change.row)
        case .updated: return .update(change.row)
        case .deleted: return .delete
        }
    }

    /// The resolution of a conflicting `change` against the other side's row `theirs` (not for `.error`).
    func resolve(_ change: PendingChange, theirs: RowSnapshot?) -> Resolution {
        guard let theirs else { return .discard(nil) }
        let base = change.base?.values ?? theirs.values
        switch (change.kind, self) {
        case (.inserted, _):
            return .insert(change.row)
        case (_, .error), (_, .rollback):
            return .discard(theirs)
        case (.deleted, .storeTrump):
            return .discard(theirs)
        case (.deleted, _):
            return .delete
        case (.updated, .overwrite):
            return .update(change.row)
        case (.updated, .objectTrump):
            var merged = theirs.values
            for property in change.changedProperties { merged.copy(from: change.row, at: property) }
            return .update(merged)
        case (.updated, .storeTrump):
            var merged = theirs.values
            for property in change.changedProperties where !theirs.values.differs(from: base, at: property) {
                merged.copy(from: change.row, at: property)
            }
            return .update(merged)
        }
    }
}
