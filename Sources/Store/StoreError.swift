import GRDB

/// A store operation that failed: the file (or URL), and SQLite's, GRDB's or PostgreSQL's reason.
package struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The SQLite file, or the PostgreSQL store's URL without its password.
    package var path: String
    /// What went wrong, as SQLite or GRDB described it.
    package var message: String

    /// A store error for `underlying`; a ``StoreError`` passes through as it is, so a caller can map
    /// every error of a block with one `catch`.
    package init(path: String, underlying: any Error) {
        if let error = underlying as? StoreError {
            self = error
            return
        }
        self.path = path
        if let error = underlying as? DatabaseError {
            self.message = "\(error.resultCode): \(error.message ?? "database error")"
        } else {
            self.message = String(describing: underlying)
        }
    }

    /// Creates an error with a message of the store's own.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}
