internal import CZlib

/// One zlib inflate stream reading gzip data (https://zlib.net/manual.html): the one owner of its
/// `z_stream`, ended and freed in `deinit`.
///
/// Output comes in caller-sized pieces, so a caller that stops asking never inflates more than it
/// asked for: that is what bounds a zip bomb.
final class GzipInflater {
    /// What one call to ``inflate(_:from:into:)`` did.
    enum Step: Equatable {
        /// This many bytes were written to the output (more may follow).
        case produced(Int)
        /// The gzip member ended (its CRC and length checked); concatenated members need ``reset()``.
        case memberEnded
        /// The input ran out before the member ended.
        case inputExhausted
        /// zlib rejected the data; its message.
        case failed(String)
    }

    private let stream: UnsafeMutablePointer<z_stream>

    /// A stream for gzip data (window bits 15 + 16: gzip header and trailer only, no zlib or raw
    /// deflate); `nil` if zlib cannot allocate one.
    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard sl_inflate_init2(stream, MAX_WBITS + 16) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Starts a new gzip member (RFC 1952 allows several, concatenated) with the same stream.
    func reset() {
        inflateReset(stream)
    }

    /// Inflates `input[position...]` into `output`, advancing `position` past what was consumed.
    func inflate(_ input: [UInt8], from position: inout Int, into output: UnsafeMutableRawBufferPointer) -> Step {
        guard let outputBase = output.baseAddress, !output.isEmpty else { return .produced(0) }
        return input.withUnsafeBufferPointer { inputBuffer -> Step in
            guard let inputBase = inputBuffer.baseAddress, position < inputBuffer.count else {
                return .inputExhausted
            }
            let available = min(inputBuffer.count - position, Int(UInt32.max))
            // zlib never writes through `next_in`; the type is only non-const because zlib.h is built
            // without Z_CONST here.
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBase + position)
            stream.pointee.avail_in = uInt(available)
            stream.pointee.next_out = outputBase.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(min(output.count, Int(UInt32.max)))
            let code = CZlib.inflate(stream, Z_NO_FLUSH)
            let consumed = available - Int(stream.pointee.avail_in)
            let produced = min(output.count, Int(UInt32.max)) - Int(stream.pointee.avail_out)
            position += consumed
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            switch code {
            case Z_STREAM_END:
                return produced > 0 ? .produced(produced) : .memberEnded
            case Z_OK, Z_BUF_ERROR:
                if produced > 0 { return .produced(produced) }
                if position >= inputBuffer.count { return .inputExhausted }
                // Input and room were both there; no progress at all would loop forever.
                return consumed > 0 ? .produced(0) : .failed("inflate made no progress")
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
                return .failed(message)
            }
        }
    }
}

@available(*, unavailable, message: "a zlib stream belongs to the one read that created it")
extension GzipInflater: Sendable {}
