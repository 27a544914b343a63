import Testing
import UniversalLinks

/// Files that cannot be used at all: each gets one clear, located error.
@Suite("Diagnosis: unusable files")
struct DiagnosisErrorTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let kind: AppSiteAssociationError.Kind
        let description: String

        init(_ name: String, _ bytes: [UInt8], _ kind: AppSiteAssociationError.Kind, _ description: String) {
            self.name = name
            self.bytes = bytes
            self.kind = kind
            self.description = description
        }

        init(_ name: String, _ text: String, _ kind: AppSiteAssociationError.Kind, _ description: String) {
            self.init(name, Array(text.utf8), kind, description)
        }

        var testDescription: String { name }
    }

    static let cases: [ErrorCase] = [
        ErrorCase("empty body", "", .empty, "the file is empty"),
        ErrorCase("white space only", " \n\t\r\n", .empty, "the file is empty"),
        ErrorCase(
            "PKCS#7, indefinite length", [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48], .signed,
            "the file is signed (PKCS#7/CMS), the iOS 8 format; serve the JSON unsigned with Content-Type application/json"
        ),
        ErrorCase(
            "PKCS#7, long-form length", [0x30, 0x82, 0x1A, 0x2B, 0x06], .signed,
            "the file is signed (PKCS#7/CMS), the iOS 8 format; serve the JSON unsigned with Content-Type application/json"
        ),
        ErrorCase(
            "PEM armour", "-----BEGIN PKCS7-----\nMIIG\n-----END PKCS7-----\n", .signed,
            "the file is PEM-armoured (signed or certificate data), not JSON; serve the JSON unsigned"),
        ErrorCase(
            "UTF-16", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], .notUTF8,
            "the file is UTF-16 (it starts with a byte order mark); serve it as UTF-8"),
        ErrorCase(
            "invalid UTF-8", [0x7B, 0x0A, 0x20, 0xFF, 0x7D], .notUTF8, "line 2, column 2: invalid UTF-8 byte 0xFF"),
        ErrorCase(
            "syntax error, located", "{\n  \"applinks\": {\n    \"details\": [,]\n  }\n}", .invalidJSON,
            "line 3, column 17: not valid JSON: unexpected ',', expected a value"),
        ErrorCase(
            "trailing comma", "{\"applinks\": {\"details\": []},}", .invalidJSON,
            "line 1, column 30: not valid JSON: unexpected '}', expected a key in double quotes"),
        ErrorCase(
            "an HTML page", "<!doctype html><title>Not found</title>", .invalidJSON,
            "line 1, column 1: not valid JSON: unexpected '<', expected a value"),
        ErrorCase(
            "truncated", "{\"applinks\": {\"détails\": [", .invalidJSON,
            "line 1, column 27: not valid JSON: unexpected end of file, expected a value"),
        ErrorCase(
            "two values", "{} {}", .invalidJSON,
            "line 1, column 4: not valid JSON: unexpected '{' after the end of the JSON value"),
        ErrorCase(
            "nesting bomb", String(repeating: "[", count: 40), .invalidJSON,
            "line 1, column 33: not valid JSON: nesting deeper than 32 levels"),
        ErrorCase(
            "top level array", "[]", .notAnObject, "the top level is an array, not an object with an \"applinks\" key"),
        ErrorCase(
            "top level string", "\"applinks\"", .notAnObject,
            "the top level is a string, not an object with an \"applinks\" key"),
        ErrorCase(
            "webcredentials only", "{\"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\"]}}",
            .missingAppLinks,
            "no \"applinks\" key, so the file declares no universal links (it has \"webcredentials\")"),
        ErrorCase(
            "applinks an array", "{\"applinks\": []}", .invalidAppLinks, "applinks: must be an object, found an array"),
        ErrorCase(
            "no details", "{\"applinks\": {\"apps\": []}}", .invalidAppLinks,
            "applinks: has no \"details\" array, so it links no app"),
        ErrorCase(
            "details an object", "{\"applinks\": {\"details\": {\"appID\": \"ABCDE12345.com.example.app\"}}}",
            .invalidAppLinks, "applinks.details: must be an array of objects, found an object"),
    ]

    @Test("Each unusable file gets its error", arguments: cases)
    func unusable(_ errorCase: ErrorCase) {
        let error = parseError(errorCase.bytes)
        #expect(error?.kind == errorCase.kind)
        #expect(error?.description == errorCase.description)
    }

    @Test("A body over the size limit is refused before parsing")
    func tooLarge() {
        let body = Array(componentsFile("[" + String(repeating: #"{"/": "/x"},"#, count: 12_000) + "{}]").utf8)
        #expect(body.count > 131_072)
        #expect(parseError(body)?.kind == .tooLarge)
        var limits = AppSiteAssociation.Limits()
        limits.maximumBytes = 10
        let error = parseError(Array("{\"applinks\": {}}".utf8), limits: limits)
        #expect(error?.kind == .tooLarge)
        #expect(error?.reason == "the file is 16 bytes, over the 10-byte limit Apple's CDN applies")
    }

    @Test("Errors carry line and column, or a location, separately")
    func errorFields() {
        let syntax = parseError(Array("{\n\"a\" 1}".utf8))
        #expect(syntax?.line == 2)
        #expect(syntax?.column == 5)
        #expect(syntax?.location == nil)
        let structural = parseError(Array("{\"applinks\": {\"details\": 3}}".utf8))
        #expect(structural?.line == nil)
        #expect(structural?.location == "applinks.details")
    }
}
