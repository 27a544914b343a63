import Donations
import Foundation
import Logging
import Store

/// Loads donation files (SPEC §6) into the store (SPEC §4's storage rules).
///
/// Records are applied in file order, in transactions of at most ``batchSize`` records (a batch is cut
/// at that many records and rejected lines together, so bad lines are never held in bulk): a crash loses at most
/// the batch being written, and because every write is idempotent (donors are counted as distinct
/// hashed pairs, content is replaced only when it differs), importing a file again — after a crash or
/// by mistake — changes nothing that is already there. With `strict`, every file is read and checked
/// first, and nothing is written unless every line is good.
///
/// The files are read and prepared on a thread of the importer's own; the store is written through
/// ``DonationStore``, so the same importer serves a SQLite file and a PostgreSQL database.
package struct DonationImporter: Sendable {
    /// Records per transaction: large enough that pages touched by many records of a batch are written
    /// once (a million records take a hundred commits), small enough that a crawler or another import
    /// waits a fraction of a second for the write lock.
    package var batchSize = 10_000
    private let store: any DonationStore
    private let logger: Logger

    /// An importer into `store`.
    package init(store: any DonationStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Imports `files` (`-` for standard input) and returns what happened. `engagementThreshold`, when
    /// given, is recorded in the store first and applies from then on; raising it removes the content
    /// of activities now below it. `progress` is called after each batch with the records read so far.
    /// - Throws: ``StoreError`` when the store fails; ``DonationIssue`` (line 0) when a file cannot be
    ///   read; a bad line is never thrown, it is counted and listed in the summary.
    package func importFiles(
        _ files: [String], engagementThreshold: Int? = nil, strict: Bool = false, now: Date = Date(),
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> ImportSummary {
        var summary = ImportSummary()
        summary.files = files.count
        var files = files
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        if strict {
            // Standard input can be read once: keep a copy for the second pass.
            if let stdin = files.firstIndex(of: "-") {
                let copy = try Self.copyStandardInput()
                temporary = copy
                files[stdin] = copy.path
            }
            for file in files {
                do {
                    try DonationFile.forEachRecord(in: file) { result in
                        if case .failure(let issue) = result { summary.note(issue) }
                    }
                } catch let issue as DonationIssue {
                    summary.noteUnreadable(issue)
                }
            }
            guard summary.rejected == 0, summary.unreadableFiles == 0 else { return summary }
        }
        let context = try await beginImport(engagementThreshold: engagementThreshold, now: now)
        summary.engagementThreshold = context.threshold
        // One thread reads, parses and prepares (hashes, rows) the next batch while this one writes the
        // previous: on two cores the parsing no longer waits for the store, nor the store for the parsing.
        let channel = BatchChannel<ReadBatch>.produced(by: "searchlight-import-reader") {
            [files, strict, batchSize, logger] send in
            try Self.read(files, preparedBy: context, strict: strict, batchSize: batchSize, logger: logger, send: send)
        }
        defer { channel.cancel() }  // a failed write stops the reader at its next batch
        do {
            try await store.withBulkImport {
                while let batch = try await channel.next() {
                    summary.records += batch.records
                    for issue in batch.issues { summary.note(issue) }
                    for issue in batch.unreadable { summary.noteUnreadable(issue) }
                    if !batch.prepared.isEmpty {
                        summary.add(
                            try await store.applyDonations(
                                batch.prepared, threshold: context.threshold, now: context.now))
                    }
                    progress?(summary.records)
                }
            }
        } catch {
            throw StoreError(path: store.displayName, underlying: error)
        }
        logger.info(
            "imported", metadata: ["records": "\(summary.records)", "rejected": "\(summary.rejected)"])
        return summary
    }

    /// Imports `records`, already read (and checked) by the caller, with `rejected`, the lines it could not
    /// read, counted and listed as ``importFiles(_:engagementThreshold:strict:now:progress:)`` lists a
    /// file's; in batches of the importer's size, each in a transaction of its own.
    ///
    /// Records are prepared (hashed, their rows built) on a thread of the importer's own, a batch ahead of
    /// the store, as a file's are: never on the caller's thread, which in a server is one of the few that
    /// answer searches.
    /// - Throws: ``StoreError`` when the store fails (the batches before it are imported).
    package func importRecords(_ records: [DonationRecord], rejected: [DonationIssue], now: Date = Date())
        async throws -> ImportSummary
    {
        var summary = ImportSummary()
        summary.records = records.count
        for issue in rejected { summary.note(issue) }
        let context = try await beginImport(engagementThreshold: nil, now: now)
        summary.engagementThreshold = context.threshold
        let channel = BatchChannel<[DonationWrite]>.produced(by: "searchlight-import-prepare", capacity: 1) {
            [batchSize] send in
            var start = records.startIndex
            while start < records.endIndex {
                let end = min(start + batchSize, records.endIndex)
                try send(records[start..<end].map(context.prepare))
                start = end
            }
        }
        defer { channel.cancel() }
        // No bulk mode (its connection settings are for one long import, and setting them waits for the
        // writer): a request's records are few, and other requests write at the same time.
        do {
            while let prepared = try await channel.next() {
                summary.add(try await store.applyDonations(prepared, threshold: context.threshold, now: context.now))
            }
        } catch {
            throw StoreError(path: store.displayName, underlying: error)
        }
        return summary
    }

    /// Records `engagementThreshold` (when given) and returns what records are prepared with: the store's
    /// salt and threshold, and the import's time.
    private func beginImport(engagementThreshold: Int?, now: Date) async throws(StoreError) -> ImportContext {
        let settings = try await store.beginImport(engagementThreshold: engagementThreshold)
        return ImportContext(
            hasher: DonationHasher(salt: settings.salt), threshold: IndexSettings(settings).engagementThreshold,
            now: now.timeIntervalSince1970)
    }

    /// What the reading thread hands over: prepared records, and the lines it read and rejected.
    struct ReadBatch: Sendable {
        var prepared: [DonationWrite] = []
        var records = 0
        var issues: [DonationIssue] = []
        /// Files that could not be opened or read to their end (the rest of the batch goes on).
        var unreadable: [DonationIssue] = []
    }

    /// Reads `files` in order and sends batches of at most `batchSize` records and rejected lines. Runs
    /// on the reading thread. A file that cannot be opened, or fails part-way, is reported with its reason
    /// and the next file is read: what it gave before the failure is imported.
    private static func read(
        _ files: [String], preparedBy context: ImportContext, strict: Bool, batchSize: Int, logger: Logger,
        send: (ReadBatch) throws -> Void
    ) throws {
        var batch = ReadBatch()
        for file in files {
            do {
                try readRecords(
                    of: file, into: &batch, preparedBy: context, strict: strict, batchSize: batchSize, logger: logger,
                    send: send)
            } catch let issue as DonationIssue {
                batch.unreadable.append(issue)
                logger.debug("unreadable", metadata: ["issue": "\(issue)"])
            }
        }
        try send(batch)
    }

    private static func readRecords(
        of file: String, into batch: inout ReadBatch, preparedBy context: ImportContext, strict: Bool,
        batchSize: Int, logger: Logger, send: (ReadBatch) throws -> Void
    ) throws {
        try DonationFile.forEachRecord(in: file) { result in
            switch result {
            case .success(let record):
                batch.records += 1
                batch.prepared.append(context.prepare(record))
            case .failure(let issue):
                if !strict { batch.issues.append(issue) }
                logger.debug("rejected", metadata: ["issue": "\(issue)"])
            }
            // Rejected lines count too, so a file of nothing but bad lines is not held in memory.
            if batch.prepared.count + batch.issues.count >= batchSize {
                try send(batch)
                batch = ReadBatch()
            }
        }
    }

    private static func copyStandardInput() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "searchlight-import-\(UUID().uuidString).jsonl")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let output = FileHandle(forWritingAtPath: url.path)
        else {
            throw DonationIssue(file: "-", line: 0, reason: "cannot buffer standard input for --strict")
        }
        defer { try? output.close() }
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
        return url
    }
}

extension ImportSummary {
    mutating func add(_ counts: DonationCounts) {
        newDonations += counts.newDonations
        storedActivities += counts.storedActivities
        belowThreshold += counts.belowThreshold
        searchableItems += counts.searchableItems
        deletions += counts.deletions
        deletedItems += counts.deletedItems
        deletedActivities += counts.deletedActivities
        withheld.merge(counts.withheld, uniquingKeysWith: +)
    }
}

extension DonationImporter {
    /// Applies one deletion (`searchlight delete`) in its own transaction, with the same rules as a
    /// delete record in a donation file.
    /// - Throws: ``StoreError``.
    package func delete(_ deletion: DeletionRecord) async throws(StoreError) -> ImportSummary {
        var summary = ImportSummary()
        summary.add(try await store.delete(ItemDeletion(deletion)))
        return summary
    }
}
