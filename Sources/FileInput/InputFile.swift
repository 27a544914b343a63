import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file the user named, or standard input, read in chunks of bounded size, with the system's reason when it
/// cannot be: `cannot open: Permission denied`, `cannot read: is a directory`, `cannot read: Input/output
/// error`. Foundation's messages for these ("you don't have permission to view it" for a directory, even as
/// root) name the wrong cause, and reading a whole file first would hold all of it.
package enum InputFile {
    /// Why a file could not be read, in words to print after its path.
    package struct ReadError: Error, CustomStringConvertible, Equatable {
        /// Whether the file could not be opened at all (nothing was read), rather than failed while being read.
        package var isOpening: Bool
        package var description: String

        package init(isOpening: Bool, description: String) {
            self.isOpening = isOpening
            self.description = description
        }
    }

    /// Whether `path` names standard input: no path, or `-`.
    package static func isStandardInput(_ path: String?) -> Bool {
        path == nil || path == "-"
    }

    /// Hands `body` the bytes of `path` (standard input for `nil` or `-`) in order, in chunks of at most
    /// `chunkBytes`, each valid only during the call.
    /// - Throws: ``ReadError`` when the file cannot be opened (a directory counts as one that cannot be read)
    ///   or a read fails, after the chunks before it; or what `body` throws, which ends the reading.
    package static func forEachChunk(
        of path: String?, chunkBytes: Int = 1 << 16, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        let ownsDescriptor = !isStandardInput(path)
        let descriptor = ownsDescriptor ? try open(path ?? "") : STDIN_FILENO
        defer { if ownsDescriptor { close(descriptor) } }
        var chunk = [UInt8](repeating: 0, count: max(1, chunkBytes))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(isOpening: false, description: "cannot read: \(systemReason())")
            }
            if count == 0 { return }
            try chunk.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The bytes of `path` (standard input for `nil` or `-`), at most `limit` of them.
    /// - Parameter limitName: how the limit is named in the error (`--max-body-size`).
    /// - Throws: ``ReadError``, also when the file holds more than `limit` bytes (read no further).
    package static func read(_ path: String?, limit: Int, limitName: String? = nil) throws(ReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try forEachChunk(of: path) { chunk in
                guard bytes.count + chunk.count <= limit else {
                    let name = limitName.map { " (\($0))" } ?? ""
                    throw ReadError(isOpening: false, description: "larger than the limit of \(limit) bytes\(name)")
                }
                bytes.append(contentsOf: chunk)
            }
        } catch let error as ReadError {
            throw error
        } catch {
            preconditionFailure("only read errors are thrown here")
        }
        return bytes
    }

    /// Opens `path` for reading: a regular file, a pipe or a device, never a directory.
    private static func open(_ path: String) throws(ReadError) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(isOpening: true, description: "cannot open: \(systemReason())") }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw ReadError(isOpening: true, description: "cannot read: is a directory")
        }
        return descriptor
    }

    /// The system's words for `errno` ("No such file or directory", "Permission denied").
    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
