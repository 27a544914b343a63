/// Why a fixture server could not start.
package enum FixtureServerError: Error, Sendable, CustomStringConvertible {
    /// The folder to serve does not exist.
    case siteNotFound(path: String)

    /// A system call failed; `errno` is the C error number it left.
    case system(_ call: String, errno: Int32)

    /// The listening socket could not be set up (FlyingSocks' description of the failure).
    case listen(String)

    /// A readable explanation for test failure messages.
    package var description: String {
        switch self {
        case .siteNotFound(let path):
            "fixture site folder not found: \(path)"
        case .system(let call, let code):
            "\(call) failed with errno \(code)"
        case .listen(let detail):
            "cannot listen on 127.0.0.1: \(detail)"
        }
    }
}
