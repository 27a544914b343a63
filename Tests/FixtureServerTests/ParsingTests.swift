import CivilTime
import Testing

@testable import FixtureServer

/// The server's small parsers, tested directly: request heads, dates, entity tags, chunked coding.
@Suite("Parsing")
struct ParsingTests {
    @Test("A well-formed head parses into method, target, version and ordered headers")
    func parsesHead() throws {
        let head = Array("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nAccept:  text/html \r\nX-Empty:".utf8)
        let request = try RequestHeadParser.parse(head[...]).get()
        #expect(request.method == "GET")
        #expect(request.target == "/a?b=1")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headers.map(\.name) == ["Host", "Accept", "X-Empty"])
        #expect(request.header("accept") == "text/html")
        #expect(request.header("x-empty") == "")
        #expect(!request.wantsClose)
    }

    @Test(
        "Malformed heads are rejected, never trapped",
        arguments: [
            "", "GET", "GET /", "GET / HTTP/1.1 extra", " GET / HTTP/1.1", "GET  / HTTP/1.1", "GET * HTTP/1.1",
            "GET http://x/ HTTP/1.1", "GET / HTTP/2.0", "GET / HTTP/1.1\r\n: empty-name", "GET / HTTP/1.1\r\nA B: c",
            "GET / HTTP/1.1\r\nA: b\rc", "GET /\u{7f} HTTP/1.1", "GÉT / HTTP/1.1",
        ]
    )
    func rejectsHead(text: String) {
        let bytes = Array(text.utf8)
        #expect(throws: RequestHeadParser.Failure.self) { try RequestHeadParser.parse(bytes[...]).get() }
    }

    @Test(
        "HTTP/1.0 and Connection: close ask for the connection to close",
        arguments: [
            ("GET / HTTP/1.0", true), ("GET / HTTP/1.1\r\nConnection: close", true),
            ("GET / HTTP/1.1\r\nConnection: keep-alive, Close", true),
            ("GET / HTTP/1.1\r\nConnection: keep-alive", false),
        ]
    )
    func wantsClose(text: String, expected: Bool) throws {
        let bytes = Array(text.utf8)
        #expect(try RequestHeadParser.parse(bytes[...]).get().wantsClose == expected)
    }

    @Test(
        "IMF-fixdate parses to seconds since 1970",
        arguments: [
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
            ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
            ("Tue, 29 Feb 2000 12:00:00 GMT", 951_825_600),
            ("Tue, 15 Oct 2024 08:00:00 GMT", 1_728_979_200),
        ]
    )
    func parsesDate(text: String, seconds: Int) {
        #expect(HTTPDate.secondsSince1970(text) == seconds)
    }

    @Test(
        "Dates in other formats or out of range are not parsed",
        arguments: [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT", "",
        ])
    func rejectsDate(text: String) {
        #expect(HTTPDate.secondsSince1970(text) == nil)
    }

    @Test("If-None-Match uses weak comparison and understands *")
    func entityTags() {
        #expect(ConditionalRequest.matches(ifNoneMatch: "W/\"a\"", etag: "\"a\""))
        #expect(ConditionalRequest.matches(ifNoneMatch: "\"x\", \"a\"", etag: "W/\"a\""))
        #expect(ConditionalRequest.matches(ifNoneMatch: "*", etag: "\"a\""))
        #expect(!ConditionalRequest.matches(ifNoneMatch: "\"b\"", etag: "\"a\""))
    }

    @Test("Chunked coding frames the body and ends with a zero chunk")
    func chunkedEncoding() {
        let encoded = Connection.chunkedEncoding(Array("abcdefghijk".utf8), chunkSize: 5)
        #expect(String(decoding: encoded, as: UTF8.self) == "5\r\nabcde\r\n5\r\nfghij\r\n1\r\nk\r\n0\r\n\r\n")
        #expect(Connection.chunkedEncoding([], chunkSize: 0) == Array("0\r\n\r\n".utf8))
    }

    @Test("Status codes without a body are recognised")
    func bodylessStatuses() {
        #expect(ResponseHead(status: 204).forbidsBody)
        #expect(ResponseHead(status: 304).forbidsBody)
        #expect(!ResponseHead(status: 200).forbidsBody)
        #expect(String(decoding: ResponseHead(status: 299).bytes, as: UTF8.self) == "HTTP/1.1 299 Status 299\r\n\r\n")
    }
}
