import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A saved page to extract: a file (or standard input) and the URL it stands for.
struct PageSource {
    var url: String
    var displayPath: String
    var file: URL?

    /// Why a page could not be read, in the system's words or as the size limit.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The page's bytes, at most `limit` of them: the crawler's body limit applies to saved pages too, so
    /// `extract - < /dev/zero` stops at the limit instead of filling memory.
    /// - Throws: ``ReadError``: `cannot open: Permission denied`, `is a directory`, `cannot read: …`, or
    ///   `larger than the body limit of N bytes (--max-body-size)`.
    func read(limit: Int) throws(ReadError) -> [UInt8] {
        let descriptor: Int32
        if let file {
            descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ReadError(description: "cannot open: \(Self.systemReason())") }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                close(descriptor)
                throw ReadError(description: "cannot read: is a directory")
            }
        } else {
            descriptor = STDIN_FILENO
        }
        defer { if file != nil { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "cannot read: \(Self.systemReason())")
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw ReadError(description: "larger than the body limit of \(limit) bytes (--max-body-size)")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }

    /// One page for a file or `-`; every `.html`/`.htm` below a directory, sorted by path,
    /// with paths mapped onto `baseURL` (`dir/index.html` → `baseURL/dir/`).
    static func pages(at path: String, baseURL: String) throws -> [PageSource] {
        if path == "-" { return [PageSource(url: baseURL, displayPath: "-", file: nil)] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("\(path): no such file or directory")
        }
        let root = URL(fileURLWithPath: path)
        guard isDirectory.boolValue else { return [PageSource(url: baseURL, displayPath: path, file: root)] }
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else {
            return []
        }
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        let rootPath = root.standardizedFileURL.path
        var pages: [PageSource] = []
        for case let file as URL in enumerator {
            let ext = file.pathExtension.lowercased()
            guard ext == "html" || ext == "htm" else { continue }
            var relative = String(file.standardizedFileURL.path.dropFirst(rootPath.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            let displayPath = (path as NSString).appendingPathComponent(relative)
            if relative == "index.html" || relative.hasSuffix("/index.html") { relative.removeLast("index.html".count) }
            let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
            pages.append(PageSource(url: base + encoded, displayPath: displayPath, file: file))
        }
        return pages.sorted { $0.displayPath < $1.displayPath }
    }
}
