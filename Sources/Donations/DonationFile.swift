import FileInput
import Foundation

/// Reads a donation file (JSON Lines) line by line in bounded memory: the file is read in chunks,
/// and a line longer than ``DonationParser/maxLineBytes`` is skipped (reported), never held whole.
package enum DonationFile {
    /// Bytes read at a time.
    static let chunkBytes = 256 * 1024

    /// Every record of `path` (`-` for standard input) in order: a record, or the issue of a line
    /// that cannot be imported. Blank lines are skipped; a UTF-8 BOM on the first line is ignored.
    /// - Throws: ``DonationIssue`` when the file cannot be opened (line 0, with the system's reason: no
    ///   such file, a directory, permission denied) or a read fails (the last line handed on, with the
    ///   reason); the records before a read error have been handed on.
    package static func forEachRecord(
        in path: String, _ body: (Result<DonationRecord, DonationIssue>) throws -> Void
    ) throws {
        var splitter = LineSplitter(file: path)
        do {
            try InputFile.forEachChunk(of: path, chunkBytes: chunkBytes) { chunk in try splitter.split(chunk, body) }
        } catch let error as InputFile.ReadError {
            throw DonationIssue(file: path, line: error.isOpening ? 0 : splitter.number, reason: error.description)
        }
        try splitter.finish(body)
    }

    /// Every record of `bytes`, a whole donation body named `name` in issues (an HTTP request's), as
    /// ``forEachRecord(in:_:)`` reads a file's: the same lines, numbers and issues.
    package static func forEachRecord(
        inBytes bytes: UnsafeRawBufferPointer, named name: String,
        _ body: (Result<DonationRecord, DonationIssue>) throws -> Void
    ) throws {
        var splitter = LineSplitter(file: name)
        try splitter.split(bytes.assumingMemoryBound(to: UInt8.self), body)
        try splitter.finish(body)
    }
}

/// Cuts chunks of a file into lines: a line inside one chunk is parsed where it lies; only a line
/// that spans chunks is copied (into `pending`), and only up to the line limit.
private struct LineSplitter {
    let file: String
    /// The number of the last line handed on.
    private(set) var number = 0
    /// The start of a line whose end is in a later chunk.
    private var pending: [UInt8] = []
    /// Inside a line already found too long: its bytes are dropped until the newline.
    private var skipping = false

    init(file: String) {
        self.file = file
    }

    mutating func split(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Result<DonationRecord, DonationIssue>) throws -> Void
    ) throws {
        guard let base = bytes.baseAddress else { return }
        var position = 0
        while position < bytes.count {
            guard let found = memchr(base + position, 0x0A, bytes.count - position) else {
                keep(UnsafeBufferPointer(rebasing: bytes[position...]))
                return
            }
            let end = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            let line = UnsafeBufferPointer(rebasing: bytes[position..<end])
            if pending.isEmpty && !skipping {
                try hand(line, tooLong: line.count > DonationParser.maxLineBytes, body)
            } else {
                keep(line)
                let tooLong = skipping
                try pending.withUnsafeBufferPointer { try hand($0, tooLong: tooLong, body) }
                pending.removeAll(keepingCapacity: true)
                skipping = false
            }
            position = end + 1
        }
    }

    /// Hands on the last line when the file does not end with a newline.
    mutating func finish(_ body: (Result<DonationRecord, DonationIssue>) throws -> Void) throws {
        guard !pending.isEmpty || skipping else { return }
        let tooLong = skipping
        try pending.withUnsafeBufferPointer { try hand($0, tooLong: tooLong, body) }
        pending = []
        skipping = false
    }

    /// Adds the start of a line to `pending`, or notes that the line is too long.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !skipping else { return }
        if pending.count + bytes.count > DonationParser.maxLineBytes {
            skipping = true
            pending.removeAll(keepingCapacity: true)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func hand(
        _ line: UnsafeBufferPointer<UInt8>, tooLong: Bool,
        _ body: (Result<DonationRecord, DonationIssue>) throws -> Void
    ) throws {
        number += 1
        var line = line[...]
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        if line.last == 0x0D { line = line.dropLast() }
        if tooLong {
            let reason = "line longer than \(DonationParser.maxLineBytes) bytes"
            try body(.failure(DonationIssue(file: file, line: number, reason: reason)))
            return
        }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        try body(DonationParser.parse(buffer: UnsafeBufferPointer(rebasing: line), file: file, number: number))
    }
}
