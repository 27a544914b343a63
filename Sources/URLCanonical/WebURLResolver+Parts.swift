internal import ASCIIText

extension WebURLResolver.FastPath {
    /// The host and port of an http(s) authority from `start`, appended as the parser serializes them (host
    /// lower-cased, a default port dropped); the index after them, or `nil` when the parser must decide.
    static func appendAuthority(
        _ reference: UnsafeBufferPointer<UInt8>, from start: Int, isHTTPS: Bool, to output: inout [UInt8]
    ) -> Int? {
        var index = start
        var labelStart = start
        while index < reference.count {
            let byte = reference[index]
            if byte == Byte.dot {
                guard isPlainLabel(reference, labelStart..<index) else { return nil }
                labelStart = index + 1
            } else if !(isASCIIAlphanumeric(byte) || byte == Byte.hyphen) {
                break
            }
            index += 1
        }
        // A last label starting with a letter rules out every IPv4 form; 253 bytes is DNS's limit. Otherwise
        // the host is taken only as a dotted quad the IPv4 parser serializes to the same bytes.
        guard index - start <= 253, isPlainLabel(reference, labelStart..<index),
            isASCIIAlpha(reference[labelStart]) || isCanonicalIPv4(reference, start..<index)
        else { return nil }
        for byte in reference[start..<index] { output.append(byte | (isASCIIAlpha(byte) ? 0x20 : 0)) }
        guard index < reference.count, reference[index] == Byte.colon else {
            return isAuthorityEnd(reference, index) ? index : nil
        }
        index += 1
        let digitsStart = index
        var port = 0
        while index < reference.count, reference[index] &- UInt8(ascii: "0") < 10, index - digitsStart < 5 {
            port = port * 10 + Int(reference[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - digitsStart
        // An empty port, a leading zero, more than five digits or a port out of range: the parser's.
        guard digits > 0, digits == 1 || reference[digitsStart] != UInt8(ascii: "0"), port <= 65_535,
            isAuthorityEnd(reference, index)
        else { return nil }
        if port != (isHTTPS ? 443 : 80) {
            output.append(Byte.colon)
            output += reference[digitsStart..<index]
        }
        return index
    }

    /// The path after an authority ending at `index`: `/` when the authority ends the path part.
    static func appendPathAfterAuthority(
        _ reference: UnsafeBufferPointer<UInt8>, from index: Int, to output: inout [UInt8]
    ) -> Int? {
        var path: [UInt8] = []
        guard index < reference.count, reference[index] == Byte.slash else {
            output.append(Byte.slash)
            return index
        }
        let end = appendPath(reference, from: index + 1, to: &path)
        output += path
        return end
    }

    /// The path segments from `start` to the first `?` or `#`, each appended to `path` as `/segment`
    /// (path set), with the standard's dot-segment rules; the index where the path part ends.
    static func appendPath(_ reference: UnsafeBufferPointer<UInt8>, from start: Int, to path: inout [UInt8]) -> Int {
        var index = start
        while true {
            let segmentStart = index
            while index < reference.count, reference[index] != Byte.slash, reference[index] != Byte.question,
                reference[index] != Byte.hash
            {
                index += 1
            }
            let isLast = index == reference.count || reference[index] != Byte.slash
            switch dots(in: reference, segmentStart..<index) {
            case 2:
                shorten(&path)
                if isLast { path.append(Byte.slash) }
            case 1:
                if isLast { path.append(Byte.slash) }
            default:
                path.append(Byte.slash)
                for byte in reference[segmentStart..<index] { EncodeSet.path.append(byte, to: &path) }
            }
            if isLast { return index }
            index += 1
        }
    }

    /// Removes the last segment of a serialized path (`/a/b` → `/a`, `/` → ``).
    static func shorten(_ path: inout [UInt8]) {
        guard let slash = path.lastIndex(of: Byte.slash) else { return }
        path.removeSubrange(slash...)
    }

    /// 1 for a single-dot segment (`.`, `%2e`), 2 for a double-dot one (`..`, `.%2E`, …), else 0.
    private static func dots(in reference: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        guard range.count <= 6 else { return 0 }
        var count = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if reference[index] == Byte.dot {
                index += 1
            } else if reference[index] == Byte.percent, index + 2 < range.upperBound,
                reference[index + 1] == UInt8(ascii: "2"), reference[index + 2] | 0x20 == UInt8(ascii: "e")
            {
                index += 3
            } else {
                return 0
            }
            count += 1
        }
        return count <= 2 ? count : 0
    }

    /// A label the parser keeps as written (lower-cased): 1–63 bytes, and not `xn--` or any label with
    /// `--` in its third and fourth bytes, which IDNA would check.
    private static func isPlainLabel(_ reference: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= 63 else { return false }
        return range.count < 4 || reference[range.lowerBound + 2] != Byte.hyphen
            || reference[range.lowerBound + 3] != Byte.hyphen
    }

    /// Four decimal parts of 0–255 without leading zeros (`127.0.0.1`): the form the host parser's IPv4
    /// serializer writes, so the parser gives these bytes back. Octal, hex, fewer parts or a trailing dot
    /// are the parser's.
    private static func isCanonicalIPv4(_ reference: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let parts = reference[range].split(separator: Byte.dot, maxSplits: 4, omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
                    && (part.count == 1 || part.first != UInt8(ascii: "0"))
                    && part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
            }
    }

    private static func isAuthorityEnd(_ reference: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        index == reference.count || reference[index] == Byte.slash || reference[index] == Byte.question
            || reference[index] == Byte.hash
    }

    private static func isASCIIAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIIAlpha(byte) || byte &- UInt8(ascii: "0") < 10
    }
}

/// The bytes the byte scan compares against.
enum Byte {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let question = UInt8(ascii: "?")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let dot = UInt8(ascii: ".")
    static let hyphen = UInt8(ascii: "-")
    static let percent = UInt8(ascii: "%")
}

/// A percent-encode set as two 64-bit masks over ASCII (``PercentEncodeSet``, for a byte at a time).
struct EncodeSet {
    let low: UInt64
    let high: UInt64

    init(_ set: PercentEncodeSet) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in UInt8(0)..<0x80 where set.contains(byte) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        self.low = low
        self.high = high
    }

    static let path = EncodeSet(.path)
    static let specialQuery = EncodeSet(.specialQuery)
    static let fragment = EncodeSet(.fragment)

    /// Appends `byte`, as `%XX` when it is in the set (every byte from 0x7F up is).
    @inline(__always)
    func append(_ byte: UInt8, to output: inout [UInt8]) {
        let encoded = byte >= 0x7F || (byte < 64 ? low >> UInt64(byte) & 1 : high >> UInt64(byte - 64) & 1) == 1
        guard encoded else {
            output.append(byte)
            return
        }
        PercentEscape.append(byte, to: &output)
    }
}
