import Foundation

/// `posix_spawn` of a browser with two connected sockets at its descriptors 3 (commands, which it reads) and 4
/// (answers, which it writes), its standard input from `/dev/null` and its output into a log file.
enum PipeSpawn {
    /// Spawns `executable`, in a process group of its own, and returns its pid with the parent's ends of the
    /// pipes (both close-on-exec, so no other child inherits them).
    static func spawn(executable: String, arguments: [String], log: String) throws(BrowserProcess.LaunchError)
        -> (pid: pid_t, commands: Int32, answers: Int32)
    {
        var commands: [Int32] = [-1, -1]
        var answers: [Int32] = [-1, -1]
        // Socket pairs rather than pipes: they are made close-on-exec atomically (`pipe2` is not visible to
        // Swift here), so a child another thread spawns meanwhile inherits neither end.
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &commands) == 0 else { throw failure("socketpair") }
        guard socketpair(AF_UNIX, kind, 0, &answers) == 0 else {
            close(commands[0])
            close(commands[1])
            throw failure("socketpair")
        }
        // The child's ends go to 3 and 4; moved above 10 first, so neither can already be 3 or 4 (a dup2 onto
        // itself would keep close-on-exec, and one onto the other's number would close it).
        let childRead = fcntl(commands[0], F_DUPFD_CLOEXEC, 10)
        let childWrite = fcntl(answers[1], F_DUPFD_CLOEXEC, 10)
        close(commands[0])
        close(answers[1])
        defer {
            close(childRead)
            close(childWrite)
        }
        guard childRead >= 0, childWrite >= 0 else {
            close(commands[1])
            close(answers[0])
            throw failure("fcntl")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, childRead, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrite, 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else {
            close(commands[1])
            close(answers[0])
            throw BrowserProcess.LaunchError(
                description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return (pid, commands[1], answers[0])
    }

    private static func failure(_ call: String) -> BrowserProcess.LaunchError {
        BrowserProcess.LaunchError(description: "\(call) failed: \(String(cString: strerror(errno)))")
    }
}
