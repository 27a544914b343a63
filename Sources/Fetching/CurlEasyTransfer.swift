internal import CCurl

#if canImport(Glibc)
    import Glibc
#endif

/// One transfer: the request's options on a borrowed easy handle, and the response it is
/// receiving.
///
/// Created, driven and destroyed on the curl thread only: libcurl calls the callbacks
/// below from inside `curl_multi_perform` on that thread, so the mutable state needs no
/// lock. The header list and the error buffer are freed in `deinit`.
final class CurlEasyTransfer {
    /// Why a callback stopped the transfer; it decides the ``FetchError/Kind``.
    enum AbortReason {
        case bodyTooLarge(limit: Int)
        case decompressionRatio(decoded: Int, wire: Int, limit: Int)
        case headersTooLarge
    }

    let job: FetchJob
    /// The easy handle, lent by the loop for this transfer.
    let easy: CurlEasyHandle
    var handle: UnsafeMutableRawPointer { easy.raw }
    let configuration: FetchConfiguration
    /// The decoded-body limit: the request's own, else the configuration's.
    let maxBodySize: Int
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a readable message here on failure (https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html).
    let errorBuffer: UnsafeMutablePointer<CChar>

    private(set) var headers = HTTPHeaders()
    private(set) var headerBytes = 0
    private(set) var body: [UInt8] = []
    private(set) var abortReason: AbortReason?
    private(set) var refusedAddress: IPAddress?

    private static let statusLinePrefix = Array("HTTP/".utf8)

    /// Response headers larger than this are refused; libcurl bounds single lines only.
    static let maxHeaderBytes = 256 * 1024

    init(job: FetchJob, easy: CurlEasyHandle, configuration: FetchConfiguration) throws(FetchError) {
        self.job = job
        self.easy = easy
        self.configuration = configuration
        self.maxBodySize = job.request.maxBodySize ?? configuration.maxBodySize
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure()
    }

    deinit {
        // The loop resets the easy handle before letting go of the transfer, so libcurl no
        // longer points at the header list or the error buffer when they are freed here.
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// libcurl's message for the last failure, if it wrote one.
    var errorMessage: String? {
        let message = String(cString: errorBuffer)
        return message.isEmpty ? nil : message
    }

    /// An opaque pointer to `self` for libcurl's callback `userdata`; valid while the
    /// loop keeps this transfer alive, which it does until the handle left the multi handle.
    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Callbacks (on the curl thread, from inside curl_multi_perform)

    /// Appends decoded body bytes, enforcing the size and ratio limits while streaming.
    /// Returning anything but `chunk.count` makes libcurl fail with `CURLE_WRITE_ERROR`.
    func receiveBody(_ chunk: UnsafeBufferPointer<UInt8>) -> Int {
        let total = body.count + chunk.count
        if total > maxBodySize {
            abortReason = .bodyTooLarge(limit: maxBodySize)
            return 0
        }
        if total > configuration.decompressionRatioGrace {
            // CURLINFO_SIZE_DOWNLOAD_T counts body bytes as received, before decoding.
            var wire: curl_off_t = 0
            _ = sl_easy_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &wire)
            if wire > 0, total / Int(wire) > configuration.maxDecompressionRatio {
                abortReason = .decompressionRatio(
                    decoded: total, wire: Int(wire), limit: configuration.maxDecompressionRatio)
                return 0
            }
        }
        if body.isEmpty, let length = headers["Content-Length"].flatMap(Int.init), length > 0,
            headers["Content-Encoding"] == nil
        {
            body.reserveCapacity(min(length, maxBodySize))
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// Records one header line. A status line starts a new header block, so interim
    /// responses (`100 Continue`, `103 Early Hints`) leave nothing behind.
    func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) -> Int {
        headerBytes += raw.count
        guard headerBytes <= Self.maxHeaderBytes, headers.count < 2000 else {
            abortReason = .headersTooLarge
            return 0
        }
        // Work on bytes and make at most two Strings per line: this runs for every header
        // of every response. (Also, in Swift "\r\n" is a single Character.)
        let line = Self.trimmed(raw, from: 0, to: raw.count)
        guard !line.isEmpty else { return raw.count }
        if raw[line].starts(with: Self.statusLinePrefix) {
            headers.removeAll()
            headerBytes = raw.count
        } else if raw[0] == UInt8(ascii: " ") || raw[0] == UInt8(ascii: "\t") {
            headers.appendToLastValue(Self.decodeHeaderText(raw, line))
        } else if let colon = raw[line].firstIndex(of: UInt8(ascii: ":")) {
            let name = Self.trimmed(raw, from: line.lowerBound, to: colon)
            let value = Self.trimmed(raw, from: colon + 1, to: line.upperBound)
            if !name.isEmpty {
                headers.append(name: Self.decodeHeaderText(raw, name), value: Self.decodeHeaderText(raw, value))
            }
        }
        return raw.count
    }

    /// The range `start..<end` of `raw` without surrounding spaces, tabs, CR and LF.
    private static func trimmed(_ raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var lower = start
        var upper = end
        while lower < upper, isSpace(raw[lower]) { lower += 1 }
        while upper > lower, isSpace(raw[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Checks the address libcurl is about to connect to against the policy and opens
    /// the socket only when it passes (https://curl.se/libcurl/c/CURLOPT_OPENSOCKETFUNCTION.html).
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let ip = Self.ipAddress(of: address)
        guard let ip, configuration.addressPolicy.allows(ip) else {
            refusedAddress = ip
            return sl_socket_bad()
        }
        let descriptor = socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        return descriptor < 0 ? sl_socket_bad() : descriptor
    }

    /// Header bytes are ISO-8859-1 unless they are valid UTF-8 (RFC 9110 §5.5).
    private static func decodeHeaderText(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        let bytes = UnsafeRawBufferPointer(rebasing: raw[range])
        // Nearly every header is ASCII, which needs no validation beyond this scan.
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func ipAddress(of address: UnsafeMutablePointer<curl_sockaddr>) -> IPAddress? {
        // `addr` is declared as `struct sockaddr`, but libcurl allocates room for the whole
        // family-specific structure behind it, so reading a sockaddr_in6 there is valid.
        guard let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) else { return nil }
        let raw = UnsafeRawPointer(address).advanced(by: offset)
        switch address.pointee.family {
        case AF_INET:
            var inet = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
            return withUnsafeBytes(of: &inet) { IPAddress(bytes: Array($0)) }
        case AF_INET6:
            var inet6 = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            return withUnsafeBytes(of: &inet6) { IPAddress(bytes: Array($0)) }
        default:
            return nil
        }
    }
}
