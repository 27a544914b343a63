import PlainText
import Testing

@Suite("Control characters removed from stored and printed text")
struct PlainTextTests {
    @Test(
        "cleaned removes every control character and turns white-space controls into spaces",
        arguments: [
            ("plain text", "plain text"),
            ("Clear\u{1B}[2J screen", "Clear[2J screen"),
            ("title\u{1B}]0;owned\u{07}", "title]0;owned"),
            ("CSI \u{9B}6n in C1", "CSI 6n in C1"),
            ("tab\tand\nnewline\r\nend", "tab and newline  end"),
            ("next line\u{85}here", "next line here"),
            ("nul\u{0}del\u{7F}", "nuldel"),
            ("é ü 京都 ภาษา 😀 ¢", "é ü 京都 ภาษา 😀 ¢"),
            ("", ""),
        ])
    func cleaned(input: String, expected: String) {
        #expect(PlainText.cleaned(input) == expected)
    }

    @Test(
        "terminalSafe keeps line feeds and tabs and removes everything else",
        arguments: [
            ("line one\nline two\tcolumn", "line one\nline two\tcolumn"),
            ("\u{1B}[2Jcleared\r\u{1B}[K", "[2Jcleared[K"),
            ("bell\u{07} and \u{9B}31m", "bell and 31m"),
            ("¢ £ © are not controls", "¢ £ © are not controls"),
        ])
    func terminalSafe(input: String, expected: String) {
        #expect(PlainText.terminalSafe(input) == expected)
    }

    @Test("Every scalar of category Cc is a control, and no other")
    func controlsAreExactlyCategoryCc() {
        for value in UInt32(0)...0x2FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(PlainText.isControl(scalar) == (scalar.properties.generalCategory == .control), "U+\(value)")
            let text = "a" + String(scalar) + "b"
            #expect(PlainText.containsControl(text) == PlainText.isControl(scalar), "U+\(value)")
            #expect(!PlainText.containsControl(PlainText.cleaned(text)))
        }
    }
}
