import Foundation

/// Locates the repository's `Fixtures/` folder: bundled sites under `sites/`, encoded bodies under `encoded/`.
///
/// Tests run from SwiftPM's build folder, not from the repository, so the folder is found from this source file's
/// own path (`#filePath`) rather than from the working directory, and the `SEARCHLIGHT_FIXTURES` environment
/// variable overrides both (for an installed binary or an unusual checkout).
package enum Fixtures {
    /// The environment variable that, when set to a directory, is used as the fixtures root.
    package static let environmentVariable = "SEARCHLIGHT_FIXTURES"

    /// The fixtures root: `$SEARCHLIGHT_FIXTURES` if set, else the nearest ancestor of this source file (then of the
    /// working directory) that contains `Fixtures/sites`, with `Fixtures` appended; else `./Fixtures`.
    package static var root: URL {
        if let override = ProcessInfo.processInfo.environment[environmentVariable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
        }
        let sourceFolder = URL(fileURLWithPath: sourceFilePath).deletingLastPathComponent()
        let workingFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        for start in [sourceFolder, workingFolder] {
            if let found = searchUpwards(from: start) {
                return found
            }
        }
        return workingFolder.appendingPathComponent("Fixtures", isDirectory: true)
    }

    /// The folder of the bundled site called `name`: `root/sites/name`.
    package static func site(_ name: String) -> URL {
        root.appendingPathComponent("sites", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    /// A file under the fixtures root, for example `file("encoded/page.html.gz")`.
    package static func file(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath, isDirectory: false)
    }

    /// The bytes of a file under the fixtures root.
    ///
    /// - Throws: the file system's error when the file cannot be read.
    package static func bytes(_ relativePath: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: file(relativePath)))
    }

    /// This file's path at compile time; a stored constant so `root` needs no parameter.
    private static let sourceFilePath: String = #filePath

    /// Walks from `start` towards `/`, returning the first `Fixtures` folder that has a `sites` subfolder.
    private static func searchUpwards(from start: URL) -> URL? {
        var folder = start.standardizedFileURL
        while true {
            let candidate = folder.appendingPathComponent("Fixtures", isDirectory: true)
            if isDirectory(candidate.appendingPathComponent("sites", isDirectory: true)) {
                return candidate
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            // At the file system root the parent is the folder itself (or "/.."), so stop there.
            if parent.path == folder.path || folder.path == "/" {
                return nil
            }
            folder = parent
        }
    }

    /// Whether `url` names an existing directory (following symbolic links).
    static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
