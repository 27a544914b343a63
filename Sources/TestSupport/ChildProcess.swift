import Foundation

/// Runs a program to its end with `posix_spawn` and `waitpid`, on the calling thread (which must be a
/// thread of its own, not one of the cooperative pool).
///
/// Foundation's `Process` is not used here: on this toolchain it learns of a child's end through a
/// descriptor the child inherits, and in a test process with hundreds of descriptors open its `run()` has
/// been seen to crash, or its termination never to arrive (a whole-suite run hung in a cluster start's
/// wait). `waitpid` on the child's own pid has no such failure. The child gets standard input from
/// /dev/null, standard output and error in `output`, the working directory `directory`, and no other
/// descriptor of this process (a small bash prologue closes them, since glibc's `closefrom` and `chdir`
/// spawn actions are not imported into Swift), so a server a program leaves running holds nothing of the
/// test's.
package enum ChildProcess {
    /// A program that could not be started, with the call that failed and its error number.
    package struct SpawnError: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        package var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// Runs `command` (a path and its arguments) with `environment`, and returns its exit status (for a
    /// signal, 128 + the signal number, as a shell reports it).
    static func run(
        _ command: [String], environment: [String: String], directory: URL, output: FileHandle
    ) throws(SpawnError) -> Int32 {
        let pid = try spawn(
            command, environment: environment, directory: directory, input: nil, output: output.fileDescriptor)
        return try waitForExit(pid)
    }

    /// Starts `command` and returns its pid without waiting: standard input from `input` (or /dev/null),
    /// standard output to `output` and standard error to `error` (or to `output` when nil; /dev/null when
    /// both are nil).
    package static func spawn(
        _ command: [String], environment: [String: String], directory: URL, input: Int32?, output: Int32?,
        error: Int32? = nil
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let standardError = error ?? output {
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let wrapped = ["/bin/bash", "-c", prologue, "bash", directory.path] + command
        let arguments = wrapped.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, wrapped[0], &actions, nil, arguments, variables)
        guard spawned == 0 else { throw SpawnError(call: "posix_spawn \(command[0])", code: spawned) }
        return pid
    }

    /// Blocks until child `pid` ends and returns its exit status (for a signal, 128 + its number).
    package static func waitForExit(_ pid: pid_t) throws(SpawnError) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(call: "waitpid", code: errno) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Enters the folder given as `$1`, closes every descriptor above standard error, then runs the rest.
    /// Changes to the working directory, closes every descriptor above 2 and runs the command. A close's
    /// error (the glob's own directory descriptor is gone by then) is silenced for that close alone: a
    /// redirection around the whole loop is undone from a saved copy of descriptor 2 that the loop closes,
    /// which left every child's standard error on /dev/null.
    private static let prologue = #"""
        cd "$1" || exit 126; shift
        for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null; fi; done
        exec "$@"
        """#
}
