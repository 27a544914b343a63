internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// Owns one libcurl easy handle and the response it is receiving.
///
/// Created, driven and destroyed on the curl thread only: libcurl calls the callbacks
/// below from inside `curl_multi_perform` on that thread, so the mutable state needs no
/// lock. The handle, its header list and its error buffer are freed in `deinit`.
final class CurlEasyTransfer {
    /// Why a callback stopped the transfer; it decides the ``FetchError/Kind``.
    enum AbortReason {
        case bodyTooLarge(limit: Int)
        case decompressionRatio(decoded: Int, wire: Int, limit: Int)
        case headersTooLarge
    }

    let job: FetchJob
    let handle: UnsafeMutableRawPointer
    let configuration: FetchConfiguration
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a readable message here on failure (https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html).
    let errorBuffer: UnsafeMutablePointer<CChar>

    private(set) var headers = HTTPHeaders()
    private(set) var headerBytes = 0
    private(set) var body: [UInt8] = []
    private(set) var abortReason: AbortReason?
    private(set) var refusedAddress: IPAddress?

    /// Response headers larger than this are refused; libcurl bounds single lines only.
    static let maxHeaderBytes = 256 * 1024

    init(job: FetchJob, configuration: FetchConfiguration) throws(FetchError) {
        guard let handle = curl_easy_init() else {
            throw FetchError(kind: .other, url: job.request.url, message: "libcurl could not create a transfer")
        }
        self.job = job
        self.handle = handle
        self.configuration = configuration
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try configure()
    }

    deinit {
        curl_easy_cleanup(handle)
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
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        let total = body.count + chunk.count
        if total > configuration.maxBodySize {
            abortReason = .bodyTooLarge(limit: configuration.maxBodySize)
            return 0
        }
        if total > configuration.decompressionRatioGrace {
            // CURLINFO_SIZE_DOWNLOAD_T counts body bytes as received, before decoding.
            var wire: curl_off_t = 0
            _ = sl_easy_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &wire)
            if wire > 0, total / Int(wire) > configuration.maxDecompressionRatio {
                abortReason = .decompressionRatio(decoded: total, wire: Int(wire), limit: configuration.maxDecompressionRatio)
                return 0
            }
        }
        if body.isEmpty, let length = headers["Content-Length"].flatMap(Int.init), length > 0,
            headers["Content-Encoding"] == nil
        {
            body.reserveCapacity(min(length, configuration.maxBodySize))
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
        // Strip the line ending as bytes: in Swift "\r\n" is a single Character.
        var length = raw.count
        while length > 0, raw[length - 1] == 0x0A || raw[length - 1] == 0x0D { length -= 1 }
        let line = Self.decodeHeaderText(UnsafeRawBufferPointer(rebasing: raw[0..<length]))
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            headerBytes = raw.count
        } else if let first = line.first, first == " " || first == "\t" {
            headers.appendToLastValue(line.trimmingWhitespace())
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            if !name.isEmpty { headers.append(name: name, value: value) }
        }
        return raw.count
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
    private static func decodeHeaderText(_ raw: UnsafeRawBufferPointer) -> String {
        if let text = String(validating: raw, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
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

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[start...end])
    }
}
