import Items
import Markup
import Testing

/// Every field that carries a URL, with the markup that sets it and where the item shows it.
struct URLField: Sendable, CustomTestStringConvertible {
    let name: String
    /// The policy the field is under: web fields take http(s) only.
    let isDeepLink: Bool
    /// The source a refusal names.
    let source: String
    /// The check a refusal is reported under.
    let checkName: String
    /// A page setting the field to `value`.
    let html: @Sendable (String) -> String
    /// The URL the extraction kept for the field, if any.
    let kept: @Sendable (PageExtraction) -> String?

    var testDescription: String { name }

    /// `value` inside a double-quoted attribute (control characters raw: libxml2 drops an attribute
    /// with a reference to one, and a browser keeps them).
    static func attribute(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            case "<": result += "&lt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `value` as a JSON string literal.
    static func json(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func meta(_ attribute: String, _ key: String, _ value: String, extra: String = "") -> String {
        page(head: "<meta \(attribute)=\"\(key)\" content=\"\(Self.attribute(value))\">\(extra)")
    }

    static func schema(_ json: String) -> String {
        page(head: jsonLD(#"{"@context":"https://schema.org","# + json + "}"))
    }

    static let all: [URLField] = [
        URLField(
            name: "thumbnail (og:image)", isDeepLink: false, source: "og:image", checkName: "url",
            html: { meta("property", "og:image", $0) }, kept: { $0.item.attributeSet.thumbnailURL }),
        URLField(
            name: "og:video", isDeepLink: false, source: "og:video", checkName: "url",
            html: { meta("property", "og:video", $0) }, kept: { $0.item.attributeSet.media?.first?.url }),
        URLField(
            name: "og:audio", isDeepLink: false, source: "og:audio", checkName: "url",
            html: { meta("property", "og:audio", $0) }, kept: { $0.item.attributeSet.media?.first?.url }),
        URLField(
            name: "canonical", isDeepLink: false, source: "rel=canonical", checkName: "url",
            html: { page(head: "<link rel=\"canonical\" href=\"\(attribute($0))\">") }, kept: { $0.canonicalURL }),
        URLField(
            name: "search action target", isDeepLink: false, source: "SearchAction target", checkName: "url",
            html: {
                schema(
                    #""@type":"WebSite","potentialAction":{"@type":"SearchAction","target":"# + json($0)
                        + #","query-input":"required name=q"}"#)
            }, kept: { $0.item.searchAction }),
        URLField(
            name: "links", isDeepLink: false, source: "<a href>", checkName: "links",
            html: { page(body: "<p><a href=\"\(attribute($0))\">x</a></p>") },
            kept: { $0.page.links.first?.url }),
        URLField(
            name: "schema.org image", isDeepLink: false, source: "schema.org image", checkName: "url",
            html: { schema(#""@type":"Article","headline":"H","image":"# + json($0)) },
            kept: { $0.item.attributeSet.thumbnailURL }),
        URLField(
            name: "schema.org ImageObject url", isDeepLink: false, source: "schema.org image", checkName: "url",
            html: { schema(#""@type":"Article","image":{"@type":"ImageObject","url":"# + json($0) + "}") },
            kept: { $0.item.attributeSet.thumbnailURL }),
        URLField(
            name: "schema.org Recipe image", isDeepLink: false, source: "schema.org image", checkName: "url",
            html: { schema(#""@type":"Recipe","name":"Tart","image":["# + json($0) + "]") },
            kept: { $0.item.attributeSet.recipe?.image }),
        URLField(
            name: "schema.org contentUrl", isDeepLink: false, source: "schema.org contentUrl", checkName: "url",
            html: { schema(#""@type":"VideoObject","name":"V","contentUrl":"# + json($0)) },
            kept: { $0.item.attributeSet.media?.first?.url }),
        URLField(
            name: "al:ios:url", isDeepLink: true, source: "al:ios:url", checkName: "url",
            html: { meta("property", "al:ios:url", $0) }, kept: { $0.item.deepLinks.first?.url }),
        URLField(
            name: "twitter:app:url:iphone", isDeepLink: true, source: "twitter:app:url:iphone", checkName: "url",
            html: { meta("name", "twitter:app:url:iphone", $0) }, kept: { $0.item.deepLinks.first?.url }),
        URLField(
            name: "app-argument", isDeepLink: true, source: "app-argument", checkName: "url",
            html: { meta("name", "apple-itunes-app", "app-id=123, app-argument=" + $0) },
            kept: { $0.item.deepLinks.first?.url }),
    ]
}

/// A hostile value, and text that must not appear in the item once it is refused.
struct HostileURL: Sendable, CustomTestStringConvertible {
    let value: String
    let marker: String
    var testDescription: String { value.debugDescription }

    static let all: [HostileURL] = [
        HostileURL(value: "javascript:alert(1)", marker: "alert(1)"),
        HostileURL(value: "JaVaScRiPt:alert(1)", marker: "alert(1)"),
        HostileURL(value: "  javascript:alert(1)", marker: "alert(1)"),
        HostileURL(value: "\u{1}\u{8}javascript:alert(1)", marker: "alert(1)"),
        HostileURL(value: "java\tscript:alert(1)", marker: "alert(1)"),
        HostileURL(value: "java\nscr\ript:alert(1)", marker: "alert(1)"),
        HostileURL(value: "vbscript:msgbox(1)", marker: "msgbox(1)"),
        HostileURL(value: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", marker: "PHNjcmlwdD5"),
        HostileURL(value: "DATA:image/svg+xml,<svg onload=alert(1)>", marker: "onload"),
        HostileURL(value: "file:///etc/passwd", marker: "/etc/passwd"),
        HostileURL(value: "blob:https://example.com/4f1c-9a2b", marker: "4f1c-9a2b"),
        HostileURL(value: "about:blank", marker: "about:"),
    ]
}

@Suite("Unsafe URL schemes are refused with a warning")
struct URLSafetyTests {
    @Test(
        "A hostile value is refused: not in the item, reported as a warning naming its source",
        arguments: URLField.all, HostileURL.all)
    func hostile(field: URLField, hostile: HostileURL) throws {
        let result = extraction(field.html(hostile.value))
        #expect(field.kept(result) == nil)
        #expect(!result.item.jsonValue.serialized().contains(hostile.marker))
        #expect(!result.jsonValue.serialized().contains("\"canonicalURL\":\"" + hostile.value))
        let warning = try #require(result.checks.first { $0.name == field.checkName }, "no \(field.checkName) check")
        #expect(warning.status == .warn)
        #expect(warning.message.contains(field.source))
        #expect(warning.message.contains("never published"))
        if field.source == "og:image" {
            #expect(result.checks.first { $0.name == "image" }?.status == .warn)
        }
    }

    @Test(
        "Web fields take http and https only; deep links may use any other scheme but the forbidden ones",
        arguments: URLField.all, ["ftp://example.com/x", "mailto:someone@example.com", "myapp://recipes/42"])
    func otherSchemes(field: URLField, value: String) {
        let result = extraction(field.html(value))
        if field.isDeepLink {
            #expect(field.kept(result) == value)
            #expect(!result.checks.contains { $0.name == "url" })
        } else {
            #expect(field.kept(result) == nil)
            // A link that is not followed is ordinary; the other web fields say why they were left out.
            let warned = result.checks.contains { $0.name == "url" && $0.message.contains("only http and https") }
            #expect(warned == (field.checkName == "url"))
        }
    }

    @Test(
        "Legitimate URLs are kept, relative ones resolved against the page (deep links and search templates as written)",
        arguments: URLField.all,
        [
            ("https://cdn.example.com/a/x.jpg", "https://cdn.example.com/a/x.jpg"),
            ("/a/x.jpg", "https://example.com/a/x.jpg"),
        ])
    func legitimate(field: URLField, value: (written: String, resolved: String)) {
        let result = extraction(field.html(value.written))
        let asWritten = field.isDeepLink || field.source == "SearchAction target"
        #expect(field.kept(result) == (asWritten ? value.written : value.resolved))
        #expect(!result.checks.contains { $0.name == "url" || $0.name == "links" })
    }
}

@Suite("Unsafe URL schemes: what is left")
struct URLRefusalTests {
    @Test("A refused og:image gives way to the next candidate; the crawler's item refuses it too")
    func fallback() {
        let html = page(
            head: """
                <meta property="og:image" content="javascript:alert(1)">
                \(jsonLD(#"{"@context":"https://schema.org","@type":"Article","image":"/real.jpg"}"#))
                """)
        let result = extraction(html)
        #expect(result.item.attributeSet.thumbnailURL == "https://example.com/real.jpg")
        #expect(result.checks.first { $0.name == "image" }?.status == .pass)
        #expect(result.checks.filter { $0.name == "url" }.count == 1)
        let stored = PageExtraction.item(
            bytes: Array(page(head: "<meta property=\"og:image\" content=\" javascript:alert(1)\">").utf8),
            url: "https://example.com/page")
        #expect(stored.item.attributeSet.thumbnailURL == nil)
    }

    @Test("A deep link with a refused URL keeps its app ID; without one it is no link")
    func deepLinkRemainder() {
        let html = page(
            head: """
                <meta name="apple-itunes-app" content="app-id=123, app-argument=vbscript:x">
                <meta name="twitter:app:id:iphone" content="456"><meta name="twitter:app:url:iphone" content="data:,x">
                <meta property="al:ios:url" content="javascript:alert(1)">
                """)
        let result = extraction(html)
        #expect(result.item.deepLinks.map(\.kind) == [.smartAppBanner, .twitterCard])
        #expect(result.item.deepLinks.map(\.appStoreID) == ["123", "456"])
        #expect(result.item.deepLinks.allSatisfy { $0.url == nil })
        #expect(result.checks.filter { $0.name == "url" }.count == 3)
    }

    @Test("Dangerous links are one warning with a count; mailto: and tel: links are not reported")
    func links() throws {
        let html = page(
            body: """
                <a href="javascript:void(0)">a</a><a href="mailto:x@example.com">b</a><a href="tel:+1555">c</a>
                <a href="JAVASCRIPT:void(0)">d</a><a href="data:text/html,x">e</a><a href="/ok">f</a>
                """)
        let result = extraction(html)
        #expect(result.page.links.map(\.url) == ["https://example.com/ok"])
        let links = result.checks.filter { $0.name == "links" }
        let check = try #require(links.first)
        #expect(links.count == 1)
        #expect(check.message.hasPrefix("<a href> (line 1) \"javascript:void(0)\" refused"))
        #expect(check.message.hasSuffix("(and 2 more links like it)"))
    }

    @Test("A long refused value is shortened in the message")
    func longValue() throws {
        let value = "data:image/png;base64," + String(repeating: "A", count: 100_000)
        let result = extraction(page(head: "<meta property=\"og:image\" content=\"\(value)\">"))
        let check = try #require(result.checks.first { $0.name == "url" })
        #expect(check.message.count < 200)
        #expect(check.message.contains("…\" refused: a data: URL is never published"))
    }

    @Test("A web URL longer than the markup's bound is refused")
    func tooLong() throws {
        let value = "https://example.com/" + String(repeating: "a", count: URLPolicy.maxWebURLLength)
        let result = extraction(page(head: "<meta property=\"og:image\" content=\"\(value)\">"))
        #expect(result.item.attributeSet.thumbnailURL == nil)
        #expect(result.checks.first { $0.name == "url" }?.message.contains("bytes once resolved") == true)
    }
}
