import Markup
import Testing

@Suite("Sitemap dates: W3C Datetime, RFC 3339 and RFC 822")
struct SitemapDateTests {
    @Test(
        "each form reads as the earliest moment it names, in UTC",
        arguments: [
            ("2024", 1_704_067_200.0),
            ("2024-03", 1_709_251_200.0),
            ("2024-03-05", 1_709_596_800.0),
            (" 2024-03-05\n", 1_709_596_800.0),
            ("2024-03-05T10:20Z", 1_709_634_000.0),
            ("2024-03-05T10:20:30Z", 1_709_634_030.0),
            ("2024-03-05T10:20:30.25Z", 1_709_634_030.25),
            ("2024-03-05T12:20:30+02:00", 1_709_634_030.0),
            ("2024-03-05T05:20:30-0500", 1_709_634_030.0),
            ("2024-03-05T10:20:30", 1_709_634_030.0),
            ("2024-02-29", 1_709_164_800.0),
            ("1969-12-31", -86_400.0),
            ("Tue, 05 Mar 2024 10:20:30 GMT", 1_709_634_030.0),
            ("Tue, 05 Mar 2024 12:20:30 +0200", 1_709_634_030.0),
        ])
    func reads(text: String, seconds: Double) {
        #expect(SitemapDate.seconds(text) == seconds)
    }

    @Test(
        "what names no real date is nil",
        arguments: [
            "", "yesterday", "2024-13-01", "2023-02-29", "2024-03-05T25:00Z", "2024-03-05T10:20:30.Z", "2024-3-5",
            "2024-03-05T10Z", "20240305", "2024-03-05T10:20:30+2", "2024-03-05T10:20:30Zjunk",
        ])
    func refuses(text: String) {
        #expect(SitemapDate.seconds(text) == nil)
    }
}
