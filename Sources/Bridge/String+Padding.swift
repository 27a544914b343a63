extension String {
    /// Appends `count` spaces (none when `count` is not positive).
    mutating func appendPadding(_ count: Int) {
        if count > 0 { append(String(repeating: " ", count: count)) }
    }
}
