import ArgumentParser
import FixtureServer
import Foundation

/// `searchlight-fixture-server`: serves a bundled fixture site (or any folder) on 127.0.0.1 until interrupted.
///
/// Prints exactly one line, the base URL, once the server is listening, then keeps serving, so a script starts it
/// in the background and reads the line from a file or FIFO rather than from a pipe it waits to close:
///
/// ```sh
/// searchlight-fixture-server --site example > server.url &
/// until [ -s server.url ]; do sleep 0.1; done
/// curl "$(cat server.url)/"; kill %1
/// ```
@main
struct FixtureServerCommand: AsyncParsableCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "searchlight-fixture-server",
        abstract: "Serve a Searchlight fixture site on 127.0.0.1 until SIGINT or SIGTERM.",
        discussion: """
            Prints the base URL (http://127.0.0.1:PORT) on one line when ready. Serves Fixtures/sites/NAME \
            (default: example), or any folder given with --root. The fixtures folder is found from the source \
            tree, or from $\(Fixtures.environmentVariable) when set.
            """
    )

    /// The bundled site to serve.
    @Option(help: "A folder name under Fixtures/sites/ to serve (default: example).")
    var site: String?

    /// The port to listen on.
    @Option(help: "The port to listen on; 0 picks a free ephemeral port.")
    var port: UInt16 = 0

    /// A folder to serve instead of a bundled site.
    @Option(help: "Serve this folder instead of a bundled site.")
    var root: String?

    /// A pause before each file, as a slow site makes.
    @Option(help: "Milliseconds each file waits before it is sent, as on a slow site (default: 0).")
    var delay: Int = 0

    /// Rejects `--site` together with `--root`.
    func validate() throws {
        if site != nil, root != nil {
            throw ValidationError("--site and --root are alternatives; pass one of them.")
        }
        guard (0...60_000).contains(delay) else { throw ValidationError("--delay must be between 0 and 60000.") }
    }

    /// Starts the server, prints its URL, and serves until a termination signal arrives.
    func run() async throws {
        let folder = root.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Fixtures.site(site ?? "example")
        let signals = TerminationSignals()
        let server = try await FixtureServer.start(directory: folder, port: port)
        if delay > 0 { await server.setSiteFileDelay(.milliseconds(delay)) }
        // Written straight to the descriptor rather than through print(): stdout is a pipe when a script reads the
        // URL, and a block-buffered line would not arrive until exit.
        FileHandle.standardOutput.write(Data("\(server.baseURL)\n".utf8))
        let received = await signals.next()
        FileHandle.standardError.write(Data("searchlight-fixture-server: signal \(received), stopping\n".utf8))
        await server.stop()
    }
}
