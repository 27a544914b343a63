internal import CCurl

// The C callbacks: plain functions with no captures, finding their transfer through
// the `userdata` pointer libcurl hands back (never through global or thread-local state).

private let writeCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlEasyTransfer>.fromOpaque(userdata).takeUnretainedValue()
    // A typed buffer lets Array.append copy with memcpy instead of byte by byte.
    let bytes = UnsafeRawPointer(data).map { $0.assumingMemoryBound(to: UInt8.self) }
    return transfer.receiveBody(UnsafeBufferPointer(start: bytes, count: size * count))
}

private let headerCallback: curl_write_callback = { data, size, count, userdata in
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlEasyTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

private let openSocketCallback: curl_opensocket_callback = { clientp, _, address in
    guard let clientp, let address else { return sl_socket_bad() }
    return Unmanaged<CurlEasyTransfer>.fromOpaque(clientp).takeUnretainedValue().openSocket(address)
}

extension CurlEasyTransfer {
    /// The `Accept` header sent when the request names none: HTML first, like a browser.
    static let defaultAccept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"

    /// Applies the request and the configuration to the easy handle. Every `setopt` is
    /// checked: a refused option is a real error, never ignored.
    func configure() throws(FetchError) {
        let request = job.request
        try set(CURLOPT_URL, request.url)
        // Several threads use libcurl; signals must not be used for timeouts.
        try set(CURLOPT_NOSIGNAL, 1)
        // The crawler follows redirects itself, checking every hop.
        try set(CURLOPT_FOLLOWLOCATION, 0)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // An empty string asks for every encoding this libcurl can decode and decodes it.
        try set(CURLOPT_ACCEPT_ENCODING, "")
        try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Wait for a multiplexable HTTP/2 connection rather than opening another one.
        try set(CURLOPT_PIPEWAIT, 1)
        // Environment proxies would connect to an address the policy never saw.
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_USERAGENT, configuration.userAgent)
        try set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.wholeMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, configuration.totalTimeout.wholeMilliseconds)
        try set(CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
        // Whole seconds, at least one; clamped so an absurd Duration cannot trap the conversion.
        let lowSpeedSeconds = min(max(configuration.lowSpeedTime.seconds.rounded(.up), 1), Double(Int32.max))
        try set(CURLOPT_LOW_SPEED_TIME, Int(lowSpeedSeconds))
        if request.method == .head { try set(CURLOPT_NOBODY, 1) }
        if let caBundlePath = configuration.caBundlePath { try set(CURLOPT_CAINFO, caBundlePath) }

        var lines = request.headerLines
        if request.headers["Accept"] == nil { lines.insert("Accept: \(Self.defaultAccept)", at: 0) }
        for line in lines {
            guard let appended = line.withCString({ curl_slist_append(headerList, $0) }) else {
                throw FetchError(kind: .other, url: request.url, message: "could not add header '\(line)'")
            }
            headerList = appended
        }
        try check(sl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
        try check(sl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        try check(sl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, writeCallback), "CURLOPT_WRITEFUNCTION")
        try check(sl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, userdata), "CURLOPT_WRITEDATA")
        try check(
            sl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, headerCallback), "CURLOPT_HEADERFUNCTION")
        try check(sl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, userdata), "CURLOPT_HEADERDATA")
        try check(sl_easy_setopt_opensocket_function(handle, openSocketCallback), "CURLOPT_OPENSOCKETFUNCTION")
        try check(sl_easy_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, userdata), "CURLOPT_OPENSOCKETDATA")
    }

    private func set(_ option: CURLoption, _ value: Int) throws(FetchError) {
        try check(sl_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(FetchError) {
        // libcurl copies string options (https://curl.se/libcurl/c/curl_easy_setopt.html).
        let code = value.withCString { sl_easy_setopt_string(handle, option, $0) }
        try check(code, "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: String) throws(FetchError) {
        guard code != CURLE_OK else { return }
        let kind: FetchError.Kind = code == CURLE_URL_MALFORMAT ? .invalidURL : .other
        throw FetchError(
            kind: kind, url: job.request.url,
            message: "libcurl refused \(what): \(String(cString: curl_easy_strerror(code)))",
            curlCode: CurlCode(rawValue: Int32(code.rawValue)))
    }
}
