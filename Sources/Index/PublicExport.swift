import Foundation
import GRDB
import Store

/// The public index as JSON Lines (SPEC §7 `export`): every public item's JSON (SPEC §6), one per
/// line, in increasing `uniqueIdentifier` (byte order), so two exports of the same index are
/// identical. Streamed from one read snapshot: memory stays constant however many items there are.
public struct PublicExport: Sendable {
    /// About how many bytes are handed to the writer at once.
    public static let chunkSize = 256 * 1024

    private let store: Store

    /// CR, LF or CRLF: what would end a JSON Lines line. Other Unicode line separators may stand
    /// raw inside JSON strings and are kept.
    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    /// An export of `store`'s public index (read-only).
    public init(store: Store) {
        self.store = store
    }

    /// Writes the items through `write`, in chunks of whole lines of about ``chunkSize`` bytes, and
    /// returns how many items were written. `write` runs on the store's reading thread, one call at
    /// a time; an error it throws stops the export and is rethrown.
    /// - Throws: ``SearchError/store(_:)`` when the store cannot be read, or what `write` threw.
    @discardableResult
    public func writeJSONLines(to write: @escaping @Sendable (Data) throws -> Void) async throws -> Int {
        let path = store.path
        do {
            return try await store.pool.read { db in
                var buffer = Data()
                buffer.reserveCapacity(Self.chunkSize + 4096)
                var count = 0
                // The unique index on unique_identifier gives the order without a sort.
                let cursor = try String.fetchCursor(
                    db, sql: "SELECT item_json FROM public_item ORDER BY unique_identifier")
                while let json = try cursor.next() {
                    // Valid JSON has newlines only as whitespace between tokens: drop them so each
                    // item stays on its line.
                    let line = json.contains(where: Self.isLineBreak) ? json.filter { !Self.isLineBreak($0) } : json
                    buffer.append(contentsOf: line.utf8)
                    buffer.append(0x0A)
                    count += 1
                    if buffer.count >= Self.chunkSize {
                        try write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                if !buffer.isEmpty { try write(buffer) }
                return count
            }
        } catch let error as DatabaseError {
            throw SearchError.store(StoreError(path: path, message: "\(error.resultCode): \(error.message ?? "")"))
        }
    }
}
