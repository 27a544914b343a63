import Foundation
import Logging

/// One headless Chromium, driven over the DevTools protocol through `--remote-debugging-pipe`: the browser
/// reads commands from its descriptor 3 and writes answers and events to its descriptor 4, NUL after each
/// message, and opens no port.
///
/// The process is the one owner of the browser: it is spawned in a process group of its own (its zygote and
/// renderers stay in it), and ``terminate()`` — or the last reference going away — kills the whole group
/// with SIGKILL and reaps the browser, so no `chromium` outlives its owner. The browser reaches no network:
/// every request is meant to be intercepted (``PageRender``), and the launch names an unreachable proxy, with
/// loopback not bypassed, so a request that escaped interception fails.
package final class BrowserProcess: Sendable {
    /// Why a browser could not be started.
    package struct LaunchError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The browser's process id (also its process group's).
    package let pid: pid_t
    /// The connection over the two pipes.
    package let connection: DevToolsConnection
    /// The throw-away profile folder, removed at ``terminate()``.
    private let profile: URL
    /// Ends once the browser has exited and been reaped.
    private let exited: ExitWatch

    private init(pid: pid_t, connection: DevToolsConnection, profile: URL, exited: ExitWatch) {
        self.pid = pid
        self.connection = connection
        self.profile = profile
        self.exited = exited
    }

    deinit {
        Self.killGroup(pid, exited: exited)
        try? FileManager.default.removeItem(at: profile)
    }

    /// The flags every browser is started with: headless, no first-run work, no background networking, no
    /// extensions, and every request through an unreachable proxy (`<-loopback>` removes the implicit
    /// bypass of loopback addresses). `heapMegabytes` bounds each renderer's JavaScript heap: past it V8 ends
    /// the renderer (the page fails as crashed) instead of growing until the machine runs out of memory.
    static func arguments(profile: URL, heapMegabytes: Int) -> [String] {
        var arguments = [
            "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--no-first-run",
            "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-default-apps", "--disable-gpu",
            "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars", "--metrics-recording-only",
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
            "--js-flags=--max-old-space-size=\(heapMegabytes)", "about:blank",
        ]
        // Chromium refuses to run as root with its sandbox; CI runs as root.
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        return arguments
    }

    /// Finds `chromium` on `PATH` (then `/usr/bin`), or nil.
    package static func locateExecutable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin"] {
            for name in ["chromium", "chromium-browser"] {
                let candidate = folder + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Starts a browser and returns once it answers on its pipe (`Browser.getVersion`).
    /// - Parameter heapMegabytes: the JavaScript heap each of its renderers may grow to.
    /// - Throws: ``LaunchError`` when Chromium is missing, cannot be spawned, or does not answer.
    package static func launch(
        executable: String? = nil, heapMegabytes: Int = 512, logger: Logger
    ) async throws -> BrowserProcess {
        guard let executable = executable ?? locateExecutable() else {
            throw LaunchError(
                description: "chromium is not installed (Scripts/bootstrap.sh installs Debian's chromium)")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "searchlight-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let spawned: (pid: pid_t, commands: Int32, answers: Int32)
        do {
            spawned = try PipeSpawn.spawn(
                executable: executable, arguments: arguments(profile: profile, heapMegabytes: max(16, heapMegabytes)),
                log: profile.appendingPathComponent("chromium.log").path)
        } catch {
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
        let exited = ExitWatch(pid: spawned.pid)
        let connection = DevToolsConnection(
            commands: spawned.commands, answers: spawned.answers, logger: logger)
        let browser = BrowserProcess(pid: spawned.pid, connection: connection, profile: profile, exited: exited)
        do {
            // A browser starting on a loaded machine may take tens of seconds.
            _ = try await connection.send("Browser.getVersion", timeout: .seconds(60))
        } catch {
            browser.terminate()
            throw LaunchError(description: "chromium did not answer on its DevTools pipe: \(error)")
        }
        return browser
    }

    /// Whether the browser process has exited.
    package var hasExited: Bool { exited.hasExited }

    /// Kills the browser's process group, closes the pipes and removes the profile. Safe to call twice.
    package func terminate() {
        Self.killGroup(pid, exited: exited)
        connection.close()
        try? FileManager.default.removeItem(at: profile)
    }

    /// Waits until the browser has been reaped and no live process is left in its group (its zygotes and
    /// renderers, killed with it, are gone once the kernel has finished them), for at most 10 s.
    package func waitForExit() async {
        await exited.wait()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        // Polls the kernel's process table: there is no descriptor to wait on for processes that are not our
        // children (they were re-parented when the browser died).
        while !Self.liveProcesses(inGroup: pid).isEmpty, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The live (not zombie) processes whose process group is `group`, from `/proc/PID/stat`.
    package static func liveProcesses(inGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            // After the command in parentheses: state, parent, process group.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X", pid_t(fields[2]) == group else { return nil }
            return pid
        }
    }

    /// The memory the browser's live processes hold of their own, together: each one's resident pages less
    /// those backed by files or shared (`/proc/PID/statm`'s resident minus shared), so the libraries every
    /// process of the group maps count once at most, not once per process.
    package func residentBytes() -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return Self.liveProcesses(inGroup: pid).reduce(0) { total, process in
            guard let statm = try? String(contentsOfFile: "/proc/\(process)/statm", encoding: .utf8) else {
                return total
            }
            let fields = statm.split(separator: " ").compactMap { Int($0) }
            return total + (fields.count > 2 ? max(0, fields[1] - fields[2]) * page : 0)
        }
    }

    /// Kills the browser's group while the browser is not reaped (its pid, and so its group's id, are still
    /// its own); once it is, only a group that still has live members is signalled, since the number could
    /// otherwise belong to a new process by now.
    private static func killGroup(_ pid: pid_t, exited: ExitWatch) {
        guard pid > 0 else { return }
        let signalled = exited.whileRunning {
            _ = kill(-pid, SIGKILL)
            _ = kill(pid, SIGKILL)
        }
        if !signalled, !liveProcesses(inGroup: pid).isEmpty { _ = kill(-pid, SIGKILL) }
    }
}
