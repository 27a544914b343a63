/// The literal text between two `*` of a pattern, with its Knuth–Morris–Pratt failure table so
/// that finding it in a URL never re-reads URL bytes.
struct GlobSegment: Sendable, Hashable {
    /// The literal bytes.
    let bytes: [UInt8]
    /// `failure[i]`: the length of the longest proper prefix of `bytes[...i]` that is also its suffix.
    let failure: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var failure = [Int](repeating: 0, count: bytes.count)
        var length = 0
        var index = 1
        while index < bytes.count {
            if bytes[index] == bytes[length] {
                length += 1
                failure[index] = length
                index += 1
            } else if length > 0 {
                length = failure[length - 1]
            } else {
                index += 1
            }
        }
        self.failure = failure
    }

    /// The first position at or after `start` where `bytes` occurs wholly before `end` in `text`.
    /// Linear in `end - start` plus the segment length.
    func firstOccurrence(in text: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int) -> Int? {
        guard !bytes.isEmpty else { return start }
        var matched = 0
        var index = start
        while index < end {
            if text[index] == bytes[matched] {
                matched += 1
                index += 1
                if matched == bytes.count { return index - matched }
            } else if matched > 0 {
                matched = failure[matched - 1]
            } else {
                index += 1
            }
        }
        return nil
    }
}

extension URLPattern {
    /// Whether the pattern matches all of `text`, as a string exactly as given.
    ///
    /// With segments `S0 * S1 * … * Sn`: the text must start with `S0` and end with `Sn` (without
    /// the two overlapping), and `S1 … Sn-1` must occur in order in between. Taking the leftmost
    /// occurrence of each middle segment is optimal, since it leaves the most room for the rest, so
    /// one left-to-right pass decides; with KMP each pass over the text is linear. Hostile patterns
    /// such as `*a*a*a*…*b` therefore cost no more than ordinary ones.
    func matches(text: String) -> Bool {
        var text = text
        return text.withUTF8 { buffer in matches(buffer) }
    }

    private func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = segments.first, let last = segments.last else { return false }
        if segments.count == 1 { return text.elementsEqual(first.bytes) }
        guard text.count >= first.bytes.count + last.bytes.count,
            text.starts(with: first.bytes),
            text[(text.count - last.bytes.count)...].elementsEqual(last.bytes)
        else { return false }
        var position = first.bytes.count
        let end = text.count - last.bytes.count
        for segment in segments.dropFirst().dropLast() where !segment.bytes.isEmpty {
            guard let found = segment.firstOccurrence(in: text, from: position, before: end) else { return false }
            position = found + segment.bytes.count
        }
        return true
    }
}
