extension WebURLResolver {
    /// The byte scan for ordinary references against an http(s) base.
    ///
    /// It takes what it can prove the parser serializes the same way: an empty reference, `#fragment`,
    /// `?query`, a path (absolute or relative, dot segments included), `//host…` and `http(s)://host…` where the
    /// host is a plain ASCII domain (letters, digits, `-`; not a number, no `xn--`-like label, no empty label)
    /// or an IPv4 address written as the parser writes it (`127.0.0.1`), with an optional port. Paths, queries
    /// and fragments are percent-encoded with the standard's sets. Anything else (another scheme, user info,
    /// IPv6 and other IPv4 forms, tabs or newlines inside, a backslash, a `:`
    /// before the first `/`) returns `nil` and goes to the parser.
    enum FastPath {
        static func resolve(_ reference: String, against base: PreparedBase, keepingFragment: Bool) -> String? {
            var reference = reference
            return reference.withUTF8 { resolve($0, against: base, keepingFragment: keepingFragment) }
        }

        /// The serialized form (without fragment) of `string` when it is an absolute `http://` or `https://`
        /// URL the scan takes; `nil` sends it to the parser.
        static func absoluteWebHref(_ string: String) -> String? {
            guard string.hasPrefix("http://") || string.hasPrefix("https://"),
                let placeholder = PreparedBase.placeholder
            else { return nil }
            return resolve(string, against: placeholder, keepingFragment: false)
        }

        private static func resolve(
            _ input: UnsafeBufferPointer<UInt8>, against base: PreparedBase, keepingFragment: Bool
        ) -> String? {
            // The parser strips leading and trailing C0 controls and spaces, removes tabs and newlines inside, and
            // reads a backslash as a slash in http(s) URLs: the last two are rare and left to it.
            var start = 0
            var end = input.count
            while start < end, input[start] <= 0x20 { start += 1 }
            while end > start, input[end - 1] <= 0x20 { end -= 1 }
            let reference = UnsafeBufferPointer(rebasing: input[start..<end])
            for byte in reference where byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == Byte.backslash {
                return nil
            }
            var output: [UInt8] = []
            output.reserveCapacity(base.origin.count + base.path.count + reference.count + 16)
            var rest = 0
            switch reference.first {
            case nil:
                output += base.origin + base.path + base.query
            case Byte.hash:
                output += base.origin + base.path + base.query
            case Byte.question:
                output += base.origin + base.path
            case Byte.slash where reference.count > 1 && reference[1] == Byte.slash:
                output += base.scheme + [Byte.slash, Byte.slash]
                guard let after = appendAuthority(reference, from: 2, isHTTPS: base.isHTTPS, to: &output) else {
                    return nil
                }
                rest = after
                guard let pathEnd = appendPathAfterAuthority(reference, from: after, to: &output) else { return nil }
                rest = pathEnd
            case Byte.slash:
                output += base.origin
                var path: [UInt8] = []
                rest = appendPath(reference, from: 1, to: &path)
                output += path
            default:
                if let schemeEnd = httpSchemeEnd(reference) {
                    let isHTTPS = schemeEnd == 8
                    output += Array(reference[0..<schemeEnd])
                    guard let after = appendAuthority(reference, from: schemeEnd, isHTTPS: isHTTPS, to: &output),
                        let pathEnd = appendPathAfterAuthority(reference, from: after, to: &output)
                    else { return nil }
                    rest = pathEnd
                } else {
                    // A relative path, unless a `:` before any `/`, `?` or `#` may end a scheme.
                    for byte in reference {
                        if byte == Byte.colon { return nil }
                        if byte == Byte.slash || byte == Byte.question || byte == Byte.hash { break }
                    }
                    output += base.origin
                    var path = base.path
                    shorten(&path)
                    rest = appendPath(reference, from: 0, to: &path)
                    output += path
                }
            }
            appendQueryAndFragment(reference, from: rest, keepingFragment: keepingFragment, to: &output)
            return String(decoding: output, as: UTF8.self)
        }

        /// 7 for a reference starting `http://`, 8 for `https://` (lowercase only), else `nil`.
        private static func httpSchemeEnd(_ reference: UnsafeBufferPointer<UInt8>) -> Int? {
            let http: [UInt8] = Array("http".utf8)
            guard reference.count > 8, Array(reference[0..<4]) == http else { return nil }
            var index = 4
            if reference[index] == UInt8(ascii: "s") { index += 1 }
            guard reference[index] == Byte.colon, reference[index + 1] == Byte.slash, reference[index + 2] == Byte.slash
            else { return nil }
            return index + 3
        }

        /// After `?` or `#`: the query (special-query set) and the fragment (fragment set) when kept.
        private static func appendQueryAndFragment(
            _ reference: UnsafeBufferPointer<UInt8>, from start: Int, keepingFragment: Bool, to output: inout [UInt8]
        ) {
            var index = start
            if index < reference.count, reference[index] == Byte.question {
                output.append(Byte.question)
                index += 1
                while index < reference.count, reference[index] != Byte.hash {
                    EncodeSet.specialQuery.append(reference[index], to: &output)
                    index += 1
                }
            }
            guard keepingFragment, index < reference.count else { return }
            output.append(Byte.hash)
            index += 1
            while index < reference.count {
                EncodeSet.fragment.append(reference[index], to: &output)
                index += 1
            }
        }
    }
}
