import Testing
import URLCanonical

@Suite("Punycode (RFC 3492)")
struct PunycodeTests {
    static let punycode: [(label: String, encoded: String)] = [
        ("bücher", "bcher-kva"),
        ("münchen", "mnchen-3ya"),
        ("straße", "strae-oqa"),
        ("中国", "fiqs8s"),
        ("食狮", "85x722f"),
        ("ü", "tda"),
        // RFC 3492 section 7.1, sample (B): Chinese (simplified).
        ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
        // Sample (A): Arabic (Egyptian).
        ("ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),
    ]

    @Test("encoding matches RFC 3492 and known IDN labels", arguments: punycode)
    func encoding(label: String, encoded: String) {
        #expect(Punycode.encode(Array(label.unicodeScalars)) == encoded)
    }

    @Test("empty labels and labels over the limit are refused")
    func limits() {
        #expect(Punycode.encode([]) == nil)
        #expect(Punycode.encode(Array(String(repeating: "ü", count: 64).unicodeScalars)) == nil)
        #expect(Punycode.encode(Array(String(repeating: "ü", count: 64).unicodeScalars), maximumScalars: 64) != nil)
    }
}
