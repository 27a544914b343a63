extension PercentEscape {
    /// How a normalizer writes the valid escapes it finds.
    package enum Form: Sendable, Hashable {
        /// An escape of an unreserved character becomes the character (RFC 3986 §6.2.2.2); every other
        /// escape keeps its byte, with upper-case hex (§6.2.2.1): `%7e` → `~`, `%2f` → `%2F`.
        case unreservedDecoded
        /// Every escape keeps its byte, with upper-case hex (§6.2.2.1 only): `%7e` → `%7E`. For text that is
        /// compared as written, escapes and all, where even an unreserved escape must not become a character.
        case uppercased
    }

    /// `bytes` with one spelling for each escape, so that text differing only in how it escapes compares
    /// equal.
    ///
    /// Each valid escape (see ``byte(in:at:)``) is written as `form` says. Every other byte, including a `%`
    /// that starts no valid escape, is kept when `keeping` accepts it (given the byte and its offset in
    /// `bytes`) and escaped otherwise. The rules the modules use differ only there:
    /// - a URL's canonical key keeps every byte (the WHATWG parser has already escaped what it must);
    /// - a crawl URL or a robots.txt path keeps only ``URICharacter/isAllowed(_:)`` bytes, so a raw space
    ///   and `%20` agree, and a stray `%` becomes `%25`;
    /// - a robots.txt rule also keeps its `*` and final `$` as pattern syntax.
    ///
    /// With a rule that refuses `%` and accepts every unreserved byte wherever it stands, the result is a
    /// fixed point: normalizing it again changes nothing. With a rule that keeps `%`, it need not be (`%%6161`
    /// gives `%a61`, whose `%a6` is then an escape).
    @inlinable
    package static func normalized(
        _ bytes: [UInt8], escapes form: Form, keeping keeps: (_ byte: UInt8, _ offset: Int) -> Bool
    ) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let decoded = byte(in: bytes, at: index) {
                if form == .unreservedDecoded && URICharacter.isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    append(decoded, to: &output)
                }
                index += 3
                continue
            }
            let byte = bytes[index]
            if keeps(byte, index) { output.append(byte) } else { append(byte, to: &output) }
            index += 1
        }
        return output
    }
}
