import ArgumentParser
import Crawler
import FileInput
import Foundation
import Robots

extension Searchlight {
    /// `searchlight robots`: the robots.txt decision for one URL, offline.
    struct RobotsCheck: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "robots",
            abstract: "Decide whether a robots.txt file allows a URL (exit 0 allowed, 1 disallowed).",
            discussion: """
                Applies RFC 9309: the group of the product token (the part of --user-agent before '/'), \
                else '*'; for Applebot a Googlebot group comes before '*', as Apple documents. The longest \
                matching rule wins, Allow wins ties, and /robots.txt is always allowed.
                """)

        @Option(help: ArgumentHelp("The robots.txt file to read.", valueName: "file"))
        var robotsFile: String

        @Option(help: ArgumentHelp("The crawler's user agent or product token.", valueName: "UA"))
        var userAgent = "Applebot"

        @Argument(help: "The URL to decide for (absolute, or a path starting with '/').")
        var url: String

        @Flag(help: "Print the decision as JSON.")
        var json = false

        func run() async throws {
            let data: [UInt8]
            do {
                // Far more than a crawler parses (RobotsTxt reads the first 500 KiB), still bounded.
                data = try InputFile.read(robotsFile, limit: 64 << 20)
            } catch {
                throw RuntimeError("\(robotsFile): \(error)")
            }
            let robots = RobotsTxt(data)
            let decision = robots.decision(for: url, userAgent: userAgent)
            let token = RobotsTxt.productToken(of: userAgent)
            if json {
                var object: [String: Any] = [
                    "url": url, "userAgent": userAgent, "productToken": token, "allowed": decision.allowed,
                ]
                object["group"] = decision.group ?? NSNull()
                if let rule = decision.rule {
                    object["rule"] = [
                        "directive": rule.allow ? "allow" : "disallow", "pattern": rule.pattern,
                        "line": rule.line,
                    ]
                } else {
                    object["rule"] = NSNull()
                }
                let output = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: output, as: UTF8.self))
            } else {
                printText("\(decision.allowed ? "allowed" : "disallowed"): \(url) for \(token)")
                printText("  \(robotsFile): \(SiteChecks.explanation(decision))")
            }
            if !decision.allowed { throw Exit.partialFailure }
        }
    }
}
