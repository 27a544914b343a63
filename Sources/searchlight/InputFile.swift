import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file the user named (or standard input), bounded, with the system's reason when it cannot:
/// `cannot open: Permission denied`, `cannot read: is a directory`, `cannot read: Input/output error`,
/// or `larger than N bytes`. Foundation's messages for these ("you don't have permission to view it"
/// for a directory, even as root) name the wrong cause.
enum InputFile {
    /// Why a file could not be read, in words to print after its path.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes of `path` (`nil` or `-` for standard input), at most `limit` of them.
    /// - Parameter limitName: how the limit is named in the error (`--max-body-size`).
    static func read(_ path: String?, limit: Int, limitName: String? = nil) throws(ReadError) -> [UInt8] {
        let descriptor: Int32
        let ownsDescriptor = path != nil && path != "-"
        if let path, ownsDescriptor {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ReadError(description: "cannot open: \(systemReason())") }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                close(descriptor)
                throw ReadError(description: "cannot read: is a directory")
            }
        } else {
            descriptor = STDIN_FILENO
        }
        defer { if ownsDescriptor { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read: \(systemReason())")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                let name = limitName.map { " (\($0))" } ?? ""
                throw ReadError(description: "larger than the limit of \(limit) bytes\(name)")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The system's words for `errno` ("No such file or directory", "Permission denied").
    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
