import Foundation
import StableHash

#if canImport(Glibc)
    import Glibc
#endif

/// The files of one store's replica in an index cache folder (``IndexReplica``):
///
/// - `KEY.N.sqlite` (with SQLite's `-wal` and `-shm`): a complete replica; the one with the highest `N` is
///   current. A rebuild never writes over a file in use: it writes `KEY.N+1.building` and renames it to
///   `KEY.N+1.sqlite` when complete (a rename is atomic), so a reader opens the old file or the new one.
/// - `KEY.lock`: held exclusively while a process rebuilds, so two processes sharing the folder build once.
///
/// A process that has a replica file open holds a shared `flock` on it (``FileLock``); a file that is not
/// current and that no process holds is deleted with its `-wal` and `-shm` by ``removeStale(current:)``, at the
/// start of a later sync. (SQLite's
/// own locks are `fcntl` locks, independent of `flock` on Linux.)
struct ReplicaFiles: Sendable {
    /// The index cache folder.
    let directory: String
    /// The store's part of every name: the database name (letters, digits, `-`, `_` only) and a hash of the
    /// store's identity.
    let key: String

    init(directory: String, identity: String, databaseName: String) {
        self.directory = directory
        let safeName = String(
            databaseName.unicodeScalars.prefix(48).map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
                    ? Character(scalar) : "_"
            })
        key = "\(safeName.isEmpty ? "store" : safeName)-\(Self.hash(identity))"
    }

    /// The complete replica file numbered `number`.
    func path(_ number: Int) -> String { directory + "/\(key).\(number).sqlite" }

    /// The file a rebuild numbered `number` writes until it is complete.
    func buildingPath(_ number: Int) -> String { directory + "/\(key).\(number).building" }

    /// The rebuild lock's file.
    var lockPath: String { directory + "/\(key).lock" }

    /// The numbers of the complete replica files, highest first.
    func completeNumbers() -> [Int] {
        numbers(suffix: ".sqlite").sorted(by: >)
    }

    /// The next number for a rebuild: above every complete and building file.
    func nextNumber() -> Int {
        (numbers(suffix: ".sqlite") + numbers(suffix: ".building")).max().map { $0 + 1 } ?? 1
    }

    /// Deletes every replica file but `current` that no process holds open (and its `-wal` and `-shm`), and
    /// building files left by a process that died.
    func removeStale(current: Int?) {
        // Only older files: a newer one may have just been renamed into place by a rebuild this process has
        // not seen yet.
        for number in numbers(suffix: ".sqlite") where number < (current ?? 0) {
            Self.removeUnheld(path(number), companions: ["-wal", "-shm"])
        }
        for number in numbers(suffix: ".building") {
            Self.removeUnheld(buildingPath(number), companions: ["-wal", "-shm", "-journal"])
        }
    }

    /// Creates the folder (and its parents) when missing.
    func createDirectory() throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: directory, message: "cannot create the index cache folder: \(error)")
        }
    }

    private func numbers(suffix: String) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let prefix = key + "."
        return names.compactMap { name in
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
            return Int(name.dropFirst(prefix.count).dropLast(suffix.count))
        }
    }

    /// Deletes `path` and its companions when no process holds a `flock` on it.
    private static func removeUnheld(_ path: String, companions: [String]) {
        guard FileManager.default.fileExists(atPath: path),
            let lock = FileLock(path: path, exclusive: true, wait: false)
        else { return }
        for suffix in companions { unlink(path + suffix) }
        unlink(path)
        _ = lock
    }

    /// FNV-1a, 64 bits, as 16 hex digits: names a store's files; the identity itself is checked inside the file.
    private static func hash(_ text: String) -> String {
        var hasher = FNV1a()
        hasher.add(text.utf8)
        return hasher.hexDigits
    }
}
