import Foundation
import Store

/// A SQLite store file in a new temporary folder, for one test: ``open()`` opens (and on first use creates
/// and migrates) it, ``cleanUp()`` removes the folder.
package struct TemporaryStore: Sendable {
    /// The folder holding the store and anything else the test writes beside it.
    package let folder: URL

    /// The store file's path.
    package var path: String { folder.appendingPathComponent("searchlight.sqlite").path }

    /// Creates the folder, named after `label` and a random suffix.
    package init(label: String = "searchlight") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Opens the store.
    package func open() throws -> SQLiteStore { try SQLiteStore(path: path) }

    /// Removes the folder and everything in it.
    package func cleanUp() { try? FileManager.default.removeItem(at: folder) }
}
