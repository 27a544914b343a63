extension String {
    /// `lowercased()`, skipped when there is nothing to lower: ASCII text without a capital letter, which
    /// every key the extractor looks its markup up by is (`twitter:app:id:iphone`, `al:ios:url`, …).
    package func lowercasedIfNeeded() -> String {
        var text = self
        let isLowercaseASCII = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } }
        return isLowercaseASCII ? self : lowercased()
    }
}
