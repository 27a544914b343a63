extension URLParser {
    /// Runs the current state on the current code point; `false` means failure.
    mutating func step() -> Bool {
        let c = current
        switch state {
        case .schemeStart:
            if let c, Self.isASCIIAlpha(c) {
                buffer.unicodeScalars.append(lowercased(c))
                state = .scheme
            } else {
                state = .noScheme
                pointer -= 1
            }
        case .scheme: return schemeState(c)
        case .noScheme: return noSchemeState(c)
        case .specialRelativeOrAuthority:
            if c == "/", remainingStarts(with: "/") {
                state = .specialAuthorityIgnoreSlashes
                pointer += 1
            } else {
                state = .relative
                pointer -= 1
            }
        case .pathOrAuthority:
            if c == "/" {
                state = .authority
            } else {
                state = .path
                pointer -= 1
            }
        case .relative: relativeState(c)
        case .relativeSlash: relativeSlashState(c)
        case .specialAuthoritySlashes:
            state = .specialAuthorityIgnoreSlashes
            if c == "/", remainingStarts(with: "/") { pointer += 1 } else { pointer -= 1 }
        case .specialAuthorityIgnoreSlashes:
            if c != "/", c != "\\" {
                state = .authority
                pointer -= 1
            }
        case .authority: return authorityState(c)
        case .host: return hostState(c)
        case .port: return portState(c)
        case .file: fileState(c)
        case .fileSlash: fileSlashState(c)
        case .fileHost: return fileHostState(c)
        case .pathStart: pathStartState(c)
        case .path: pathState(c)
        case .opaquePath: opaquePathState(c)
        case .query: queryState(c)
        case .fragment:
            if let c { url.fragment?.appendPercentEncoded(c, .fragment) }
        }
        return true
    }

    func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 0x20) ?? scalar : scalar
    }

    private mutating func schemeState(_ c: Unicode.Scalar?) -> Bool {
        if let c, Self.isASCIIAlpha(c) || Self.isASCIIDigit(c) || c == "+" || c == "-" || c == "." {
            buffer.unicodeScalars.append(lowercased(c))
        } else if c == ":" {
            url.scheme = buffer
            buffer = ""
            if url.scheme == "file" {
                state = .file
            } else if url.isSpecial, let base, base.scheme == url.scheme {
                state = .specialRelativeOrAuthority
            } else if url.isSpecial {
                state = .specialAuthoritySlashes
            } else if remainingStarts(with: "/") {
                state = .pathOrAuthority
                pointer += 1
            } else {
                url.opaquePath = ""
                state = .opaquePath
            }
        } else {
            buffer = ""
            state = .noScheme
            pointer = -1
        }
        return true
    }

    private mutating func noSchemeState(_ c: Unicode.Scalar?) -> Bool {
        guard let base else { return false }
        if base.hasOpaquePath {
            guard c == "#" else { return false }
            url.scheme = base.scheme
            url.opaquePath = base.opaquePath
            url.query = base.query
            url.fragment = ""
            state = .fragment
        } else {
            state = base.scheme == "file" ? .file : .relative
            pointer -= 1
        }
        return true
    }

    private mutating func relativeState(_ c: Unicode.Scalar?) {
        guard let base else { return }
        url.scheme = base.scheme
        if isSlash(c) {
            state = .relativeSlash
            return
        }
        url.username = base.username
        url.password = base.password
        url.host = base.host
        url.port = base.port
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
            url.shortenPath()
            state = .path
            pointer -= 1
        }
    }

    private mutating func relativeSlashState(_ c: Unicode.Scalar?) {
        if url.isSpecial, c == "/" || c == "\\" {
            state = .specialAuthorityIgnoreSlashes
        } else if c == "/" {
            state = .authority
        } else {
            if let base {
                url.username = base.username
                url.password = base.password
                url.host = base.host
                url.port = base.port
            }
            state = .path
            pointer -= 1
        }
    }

    private mutating func authorityState(_ c: Unicode.Scalar?) -> Bool {
        if c == "@" {
            if atSignSeen { buffer = "%40" + buffer }
            atSignSeen = true
            for scalar in buffer.unicodeScalars {
                if scalar == ":", !passwordTokenSeen {
                    passwordTokenSeen = true
                } else if passwordTokenSeen {
                    PercentEncoding.append(scalar, to: &url.password, encoding: .userinfo)
                } else {
                    PercentEncoding.append(scalar, to: &url.username, encoding: .userinfo)
                }
            }
            buffer = ""
        } else if isAuthorityEnd(c) {
            if atSignSeen, buffer.isEmpty { return false }
            pointer -= buffer.unicodeScalars.count + 1
            buffer = ""
            state = .host
        } else if let c {
            buffer.unicodeScalars.append(c)
        }
        return true
    }

    private mutating func hostState(_ c: Unicode.Scalar?) -> Bool {
        if c == ":", !insideBrackets {
            guard !buffer.isEmpty, let host = URLHost.parse(buffer, isOpaque: !url.isSpecial) else { return false }
            url.host = host
            buffer = ""
            state = .port
        } else if isAuthorityEnd(c) {
            pointer -= 1
            if url.isSpecial, buffer.isEmpty { return false }
            guard let host = URLHost.parse(buffer, isOpaque: !url.isSpecial) else { return false }
            url.host = host
            buffer = ""
            state = .pathStart
        } else if let c {
            if c == "[" { insideBrackets = true }
            if c == "]" { insideBrackets = false }
            buffer.unicodeScalars.append(c)
        }
        return true
    }

    private mutating func portState(_ c: Unicode.Scalar?) -> Bool {
        if let c, Self.isASCIIDigit(c) {
            // Leading zeros are allowed; anything past five significant digits is out of range anyway.
            portDigitSeen = true
            if !(buffer.isEmpty && c == "0") {
                buffer.unicodeScalars.append(c)
                if buffer.unicodeScalars.count > 5 { return false }
            }
        } else if isAuthorityEnd(c) {
            if portDigitSeen {
                let port = Int(buffer) ?? 0
                guard port <= 65535 else { return false }
                url.port = port == url.defaultPort ? nil : port
                buffer = ""
            }
            state = .pathStart
            pointer -= 1
        } else {
            return false
        }
        return true
    }
}
