import ArgumentParser
import FileInput
import Foundation

/// A saved page to extract: a file (or standard input) and the URL it stands for.
struct PageSource {
    var url: String
    var displayPath: String
    var file: URL?

    /// The page's bytes, at most `limit` of them: the crawler's body limit applies to saved pages too, so
    /// `extract - < /dev/zero` stops at the limit instead of filling memory.
    func read(limit: Int) throws(InputFile.ReadError) -> [UInt8] {
        try InputFile.read(file?.path, limit: limit, limitName: "--max-body-size")
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
