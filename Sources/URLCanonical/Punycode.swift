/// Punycode encoding (RFC 3492, https://www.rfc-editor.org/rfc/rfc3492), the transfer form of
/// international domain labels: `bücher` → `bcher-kva`, written in a host as `xn--bcher-kva`.
///
/// Only encoding is needed: hosts are keyed in their ASCII form, and an `xn--` label that arrives
/// already encoded is kept as it is. Shared by this module's IDNA and by `Scope`'s host names.
package enum Punycode {
    // The RFC 3492 section 5 parameter values for Punycode.
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// The Punycode form of `label` (without the `xn--` prefix), or `nil` for an empty label or one longer than
    /// `maximumScalars` (the URL Standard does not limit label length, so the caller bounds the work).
    ///
    /// The caller maps the label first (lowercase, NFKC); this only encodes code points.
    /// The default limit, 63, is the most that can fit a 63-byte DNS label once encoded.
    package static func encode(_ label: [Unicode.Scalar], maximumScalars: Int = 63) -> String? {
        guard !label.isEmpty, label.count <= maximumScalars else { return nil }
        let codePoints = label.map { Int($0.value) }
        var output: [UInt8] = codePoints.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = initialN
        var delta = 0
        var bias = initialBias
        var handled = basicCount
        while handled < codePoints.count {
            // The smallest code point not yet handled; exists because handled < count.
            guard let next = codePoints.filter({ $0 >= n }).min() else { return nil }
            // Inputs are bounded by maximumScalars (thousands), so delta stays far below Int.max.
            delta += (next - n) * (handled + 1)
            n = next
            for codePoint in codePoints {
                if codePoint < n { delta += 1 }
                guard codePoint == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = threshold(k, bias: bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3492 section 6.1: the bias adaptation after each encoded code point.
    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + ((base - tMin + 1) * delta) / (delta + skew)
    }

    /// The threshold `t` for digit position `k` (RFC 3492 section 6.3), clamped to [tmin, tmax].
    private static func threshold(_ k: Int, bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    /// Digit values 0–25 are `a`–`z`, 26–35 are `0`–`9` (lowercase, as hosts are keyed).
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }
}
