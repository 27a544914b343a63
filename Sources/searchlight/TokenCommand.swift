import ArgumentParser
import Foundation
import Service
import Store

extension Searchlight {
    /// `searchlight token`: the tokens apps donate with over HTTP (SPEC §6 "Tokens").
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Create, list and revoke the tokens for POST /api/donations.",
            discussion: """
                A token may donate and delete only for the bundles it was created for. The store keeps only \
                its SHA-256: `create` prints the token once, as the last line of standard output.
                """,
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create", abstract: "Create a token for one or more bundles.")

            @Option(
                name: .customLong("bundle"), parsing: .upToNextOption,
                help: ArgumentHelp("The bundle identifiers the token may donate for.", valueName: "bundle"))
            var bundles: [String] = []

            @OptionGroup var store: StoreOptions

            func validate() throws {
                guard !bundles.isEmpty else { throw ValidationError("Give at least one --bundle.") }
                for bundle in bundles {
                    guard !bundle.isEmpty, bundle.utf8.count <= 255,
                        !bundle.unicodeScalars.contains(where: {
                            $0.properties.isWhitespace || $0.properties.generalCategory == .control
                        })
                    else { throw ValidationError("'\(bundle)' is not a bundle identifier.") }
                }
            }

            func run() async throws {
                let created = try await store.withPublicIndex(creating: true) { index in
                    try await DonationTokens.create(for: bundles, in: index)
                }
                print("token \(created.id) for \(Set(bundles).sorted().joined(separator: ", ")); shown once, keep it:")
                print(created.token)
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the tokens (never the tokens themselves).")

            @Flag(help: "Print the tokens as JSON.")
            var json = false

            @OptionGroup var store: StoreOptions

            func run() async throws {
                let tokens = try await store.withPublicIndex { index in try await index.tokens() }
                if json {
                    let objects: [[String: Any]] = tokens.map { token in
                        [
                            "id": token.id, "bundles": token.bundles, "createdAt": Self.iso(token.createdAt),
                            "revokedAt": token.revokedAt.map(Self.iso) ?? NSNull(),
                        ]
                    }
                    let data = try JSONSerialization.data(
                        withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
                    print(String(decoding: data, as: UTF8.self))
                    return
                }
                if tokens.isEmpty { print("No tokens.") }
                for token in tokens {
                    let state = token.revokedAt.map { "revoked \(Self.iso($0))" } ?? "valid"
                    print(
                        "\(token.id)  \(state)  created \(Self.iso(token.createdAt))  \(token.bundles.joined(separator: ", "))"
                    )
                }
            }

            static func iso(_ time: Double) -> String {
                Date(timeIntervalSince1970: time).formatted(.iso8601)
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "revoke",
                abstract: "Revoke a token: it is refused from then on.",
                discussion: "Exit status: 0 revoked, 1 no valid token has this id.")

            @Argument(help: "The token's id, as `token list` shows it.")
            var id: String

            @OptionGroup var store: StoreOptions

            func run() async throws {
                let revoked = try await store.withPublicIndex { index in
                    try await index.revokeToken(id: id, at: Date().timeIntervalSince1970)
                }
                guard revoked else {
                    printToStandardError("token: no valid token has the id \(id)")
                    throw Exit.partialFailure
                }
                print("revoked \(id)")
            }
        }
    }
}
