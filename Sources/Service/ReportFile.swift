import Foundation
import Hummingbird
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A report file opened for one `GET /api/report`, streamed a chunk at a time.
///
/// The next chunk is read only once the connection has taken the previous one, and the connection takes
/// one only while it is writable (its queued bytes under ``ServiceConfiguration/maxPendingOutputBytes``):
/// a client that reads slowly, or not at all, holds one chunk and its connection's write buffer, never the
/// file (a file API that reads ahead held a megabyte per such client). Reads run on NIO's blocking-I/O
/// thread pool. The open descriptor keeps the bytes readable after ``ReportCache`` deletes the file for a
/// newer publish, and is closed when the last reference to this object goes.
final class ReportFile: Sendable {
    private let descriptor: Int32
    /// The file's size in bytes.
    let size: Int

    /// Bytes read and written at a time.
    static let chunkBytes = 64 << 10

    private init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    deinit {
        close(descriptor)
    }

    /// Opens the file at `path` on NIO's thread pool.
    /// - Throws: a `POSIXError` when it cannot be opened.
    static func open(_ path: String) async throws -> ReportFile {
        try await NIOThreadPool.singleton.runIfActive {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let code = errno
                close(descriptor)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            return ReportFile(descriptor: descriptor, size: Int(status.st_size))
        }
    }

    /// The file's bytes as a response body of known length.
    var body: ResponseBody {
        ResponseBody(contentLength: size) { [self] writer in
            var offset = 0
            while offset < size {
                let chunk = try await read(at: offset, count: min(Self.chunkBytes, size - offset))
                offset += chunk.readableBytes
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
    }

    /// Reads `count` bytes at `offset` on NIO's thread pool.
    private func read(at offset: Int, count: Int) async throws -> ByteBuffer {
        try await NIOThreadPool.singleton.runIfActive { [descriptor] in
            var buffer = ByteBuffer()
            buffer.reserveCapacity(count)
            var read = 0
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
                read = pread(descriptor, bytes.baseAddress, count, off_t(offset))
                return max(read, 0)
            }
            guard read > 0 else {
                throw POSIXError(read == 0 ? .EIO : POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            return buffer
        }
    }
}
