extension URLParser {
    mutating func fileState(_ c: Unicode.Scalar?) {
        url.scheme = "file"
        url.host = .empty
        if c == "/" || c == "\\" {
            state = .fileSlash
        } else if let base, base.scheme == "file" {
            url.host = base.host
            url.path = base.path
            url.query = base.query
            if c == "?" {
                url.query = ""
                state = .query
            } else if c == "#" {
                url.fragment = ""
                state = .fragment
            } else if c != nil {
                url.query = nil
                if startsWithWindowsDriveLetter(at: pointer) { url.path = [] } else { url.shortenPath() }
                state = .path
                pointer -= 1
            }
        } else {
            state = .path
            pointer -= 1
        }
    }

    mutating func fileSlashState(_ c: Unicode.Scalar?) {
        if c == "/" || c == "\\" {
            state = .fileHost
            return
        }
        if let base, base.scheme == "file" {
            url.host = base.host
            if !startsWithWindowsDriveLetter(at: pointer), let first = base.path.first,
                Self.isNormalizedWindowsDriveLetter(first)
            {
                url.path.append(first)
            }
        }
        state = .path
        pointer -= 1
    }

    mutating func fileHostState(_ c: Unicode.Scalar?) -> Bool {
        guard c == nil || c == "/" || c == "\\" || c == "?" || c == "#" else {
            if let c { buffer.unicodeScalars.append(c) }
            return true
        }
        pointer -= 1
        if Self.isWindowsDriveLetter(buffer) {
            state = .path  // the buffer is kept: it becomes the first path segment
        } else if buffer.isEmpty {
            url.host = .empty
            state = .pathStart
        } else {
            guard var host = URLHost.parse(buffer, isOpaque: false) else { return false }
            if host == .domain("localhost") { host = .empty }
            url.host = host
            buffer = ""
            state = .pathStart
        }
        return true
    }

    mutating func pathStartState(_ c: Unicode.Scalar?) {
        if url.isSpecial {
            state = .path
            if c != "/", c != "\\" { pointer -= 1 }
        } else if c == "?" {
            url.query = ""
            state = .query
        } else if c == "#" {
            url.fragment = ""
            state = .fragment
        } else if c != nil {
            state = .path
            if c != "/" { pointer -= 1 }
        }
    }

    mutating func pathState(_ c: Unicode.Scalar?) {
        guard c == nil || isSlash(c) || c == "?" || c == "#" else {
            if let c { PercentEncoding.append(c, to: &buffer, encoding: .path) }
            return
        }
        let slash = isSlash(c)
        if Self.isDoubleDot(buffer) {
            url.shortenPath()
            if !slash { url.path.append("") }
        } else if Self.isSingleDot(buffer) {
            if !slash { url.path.append("") }
        } else {
            if url.scheme == "file", url.path.isEmpty, Self.isWindowsDriveLetter(buffer) {
                buffer = String(buffer.prefix(1)) + ":"
            }
            url.path.append(buffer)
        }
        buffer = ""
        if c == "?" {
            url.query = ""
            state = .query
        } else if c == "#" {
            url.fragment = ""
            state = .fragment
        }
    }

    mutating func opaquePathState(_ c: Unicode.Scalar?) {
        if c == "?" {
            url.query = ""
            state = .query
        } else if c == "#" {
            url.fragment = ""
            state = .fragment
        } else if c == " " {
            // A space is kept unless a query or fragment follows, so the path never ends in a bare space.
            let next = at(pointer + 1)
            url.opaquePath?.append(next == "?" || next == "#" ? "%20" : " ")
        } else if let c {
            url.opaquePath?.appendPercentEncoded(c, .c0Control)
        }
    }

    mutating func queryState(_ c: Unicode.Scalar?) {
        if c == "#" {
            url.fragment = ""
            state = .fragment
        } else if let c {
            let set: PercentEncodeSet = url.isSpecial ? .specialQuery : .query
            url.query?.appendPercentEncoded(c, set)
        }
    }
}
