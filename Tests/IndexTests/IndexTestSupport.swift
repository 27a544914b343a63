import Foundation
import GRDB
import Store

/// A fresh store file in a temporary folder, removed by `cleanUp()`.
struct IndexTestStore {
    let folder: URL
    var path: String { folder.appendingPathComponent("searchlight.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func open() throws -> Store { try Store(path: path) }

    /// Reads the file directly, as an outside tool would, without the store's API.
    func readOnly<T>(_ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        // The store's last connection may still be closing (its checkpoint holds the lock a moment): wait.
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration).read(body)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }
}
