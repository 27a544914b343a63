/// Whether bytes are well-formed UTF-8 (Unicode §3.9, Table 3-7), decided as the standard library decides
/// it, but without reading ASCII text byte by byte or building a string.
///
/// Every byte of a multi-byte sequence is 0x80 or above and every ASCII byte is a whole character, so the
/// bytes are well-formed exactly when each maximal run of non-ASCII bytes is. Runs of ASCII are skipped eight
/// bytes at a time, and only the non-ASCII runs (an accented letter, a curly quote, a line of CJK text) go
/// to the standard library's validator (`UTF8Span(validating:)`). A mostly-ASCII page, which is what HTML
/// markup makes of nearly every page, is checked at a fraction of the cost of `String(validating:)`, which
/// also copies it.
enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8; an empty buffer is.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            while count - index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            while index < count, base[index] < 0x80 { index += 1 }
            guard index < count else { return true }
            let start = index
            while index < count, base[index] >= 0x80 { index += 1 }
            let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard (try? UTF8Span(validating: run.span)) != nil else { return false }
        }
        return true
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isValid(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    /// `bytes` as a string: equal to `String(decoding: bytes, as: UTF8.self)`, but well-formed bytes are
    /// checked by ``isValid(_:)`` (ASCII eight bytes at a time) and then copied without the standard
    /// library checking them again; ill-formed ones are repaired as `String(decoding:as:)` repairs them.
    static func string(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard isValid(buffer) else { return String(decoding: buffer, as: UTF8.self) }
            // Sound because `isValid` accepted exactly these bytes (UTF8ValidationTests hold it to the
            // standard library's own verdict).
            return String(copying: unsafe UTF8Span(unchecked: buffer.span))
        }
    }
}
