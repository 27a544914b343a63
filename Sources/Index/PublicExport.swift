import Foundation
import Store

/// The public index as JSON Lines (SPEC §7 `export`): every public item's JSON (SPEC §6), one per
/// line, in increasing `uniqueIdentifier` (byte order), so two exports of the same index are
/// identical, whichever engine holds it. Streamed from one read snapshot: memory stays constant however
/// many items there are.
package struct PublicExport: Sendable {
    /// About how many bytes are handed to the writer at once.
    package static let chunkSize = 256 * 1024

    private let index: any PublicIndexStore

    /// CR, LF or CRLF: what would end a JSON Lines line. Other Unicode line separators may stand
    /// raw inside JSON strings and are kept.
    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    /// An export of `store`'s public index (read-only).
    package init(store: SQLiteStore) {
        self.init(index: store)
    }

    /// An export of the public index of a store of either engine (read-only).
    package init(index: any PublicIndexStore) {
        self.index = index
    }

    /// Writes the items through `write`, in chunks of whole lines of about ``chunkSize`` bytes, and
    /// returns how many items were written. `write` runs one call at a time (on SQLite on the store's
    /// reading thread); an error it throws stops the export and is rethrown.
    /// - Throws: ``SearchError/store(_:)`` when the store cannot be read, or what `write` threw.
    @discardableResult
    package func writeJSONLines(to write: @escaping @Sendable (Data) throws -> Void) async throws -> Int {
        do {
            return try await index.forEachPublicItemBatch(batchBytes: Self.chunkSize) { items in
                try write(Self.lines(items))
            }
        } catch let error as StoreError {
            throw SearchError.store(error)
        }
    }

    /// `items` as JSON Lines: each on one line, ended by a newline.
    private static func lines(_ items: [String]) -> Data {
        var data = Data()
        data.reserveCapacity(items.reduce(items.count) { $0 + $1.utf8.count })
        for json in items {
            // Valid JSON has newlines only as whitespace between tokens: drop them so each item stays on
            // its line.
            let line = json.contains(where: isLineBreak) ? json.filter { !isLineBreak($0) } : json
            data.append(contentsOf: line.utf8)
            data.append(0x0A)
        }
        return data
    }
}
