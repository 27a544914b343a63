import Foundation

/// Reads a donation file (JSON Lines) line by line in bounded memory: the file is read in chunks,
/// and a line longer than ``DonationParser/maxLineBytes`` is skipped (reported), never held whole.
public enum DonationFile {
    /// Every record of `path` (`-` for standard input) in order: a record, or the issue of a line
    /// that cannot be imported. Blank lines are skipped; a UTF-8 BOM on the first line is ignored.
    /// - Throws: ``DonationIssue`` (line 0) when the file cannot be opened or read.
    public static func forEachRecord(
        in path: String, _ body: (Result<DonationRecord, DonationIssue>) throws -> Void
    ) throws {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw DonationIssue(file: path, line: 0, reason: "cannot open the file")
            }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var pending: [UInt8] = []
        var skipping = false  // inside a line already found too long
        var number = 0
        func finish(_ line: ArraySlice<UInt8>, tooLong: Bool) throws {
            number += 1
            var line = line
            if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            if line.last == 0x0D { line = line.dropLast() }
            if tooLong {
                try body(
                    .failure(
                        DonationIssue(
                            file: path, line: number, reason: "line longer than \(DonationParser.maxLineBytes) bytes")))
                return
            }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            try body(DonationParser.parse(line, file: path, number: number))
        }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 64 * 1024) ?? Data()
            } catch {
                throw DonationIssue(file: path, line: number, reason: "read error: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            for byte in chunk {
                if byte == 0x0A {
                    try finish(pending[...], tooLong: skipping)
                    pending.removeAll(keepingCapacity: true)
                    skipping = false
                } else if !skipping {
                    pending.append(byte)
                    if pending.count > DonationParser.maxLineBytes {
                        skipping = true
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        if !pending.isEmpty || skipping { try finish(pending[...], tooLong: skipping) }
    }
}
