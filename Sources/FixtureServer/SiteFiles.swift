import Foundation
import StableHash

/// Maps request paths to files in a served folder, and file names to content types.
enum SiteFiles {
    /// A file found for a request.
    struct Found {
        /// The file's contents.
        let bytes: [UInt8]
        /// The `Content-Type` for it.
        let contentType: String
    }

    /// The file that `route` names under `root`, or nil for a 404.
    ///
    /// `/` and directory paths (with or without a trailing slash) serve the directory's `index.html`. The route is
    /// percent-decoded; `..` segments, NUL bytes and anything else that could climb out of `root` give nil.
    static func find(route: String, in root: URL) -> Found? {
        guard let decoded = route.removingPercentEncoding, !decoded.contains("\0") else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        var file = root
        for segment in segments {
            file.appendPathComponent(String(segment))
        }
        if Fixtures.isDirectory(file) {
            file.appendPathComponent("index.html")
        }
        guard let bytes = read(file) else { return nil }
        return Found(bytes: bytes, contentType: contentType(forFileName: file.lastPathComponent))
    }

    /// The marker a text fixture (XML, plain text, robots.txt) writes where the absolute origin of the
    /// server belongs, since sitemaps and `Sitemap:` lines need absolute URLs and the port is chosen at start.
    static let originMarker = Array("{{origin}}".utf8)

    /// `found`'s bytes with every `{{origin}}` replaced by `http://` plus the request's `Host`, for XML
    /// and plain-text files; other files (and requests without a `Host`) are served verbatim.
    static func substitutingOrigin(in found: Found, host: String?) -> [UInt8] {
        guard let host, found.contentType.hasPrefix("application/xml") || found.contentType.hasPrefix("text/plain")
        else { return found.bytes }
        let origin = Array("http://\(host)".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(found.bytes.count)
        var index = 0
        let bytes = found.bytes
        while index < bytes.count {
            if bytes[index] == originMarker[0], bytes[index...].starts(with: originMarker) {
                output.append(contentsOf: origin)
                index += originMarker.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// A strong entity tag for `bytes` (64-bit FNV-1a of the content).
    static func entityTag(of bytes: [UInt8]) -> String {
        "\"\(String(FNV1a.hash(bytes), radix: 16))\""
    }

    /// The contents of a regular file, or nil when it is missing, a directory or unreadable.
    static func read(_ file: URL) -> [UInt8]? {
        guard !Fixtures.isDirectory(file), let data = try? Data(contentsOf: file) else { return nil }
        return [UInt8](data)
    }

    /// A `Content-Type` guessed from a file name's extension; text types say UTF-8, as the fixtures are.
    static func contentType(forFileName name: String) -> String {
        let fileExtension = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch fileExtension {
        case "html", "htm": return "text/html; charset=utf-8"
        case "xhtml": return "application/xhtml+xml"
        case "txt": return "text/plain; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "jsonld": return "application/ld+json"
        case "xml": return "application/xml"
        case "rss": return "application/rss+xml"
        case "atom": return "application/atom+xml"
        case "csv": return "text/csv; charset=utf-8"
        case "md": return "text/markdown; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "ico": return "image/vnd.microsoft.icon"
        case "pdf": return "application/pdf"
        case "gz": return "application/gzip"
        case "br": return "application/x-brotli"
        case "zst": return "application/zstd"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}
