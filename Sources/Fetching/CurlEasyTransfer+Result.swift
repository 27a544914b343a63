internal import CCurl

extension CurlEasyTransfer {
    /// Turns libcurl's final result code and the received data into a response or a
    /// typed error. Called once, on the curl thread, after the transfer left the multi handle.
    func result(for code: CURLcode) -> Result<FetchResponse, FetchError> {
        let url = job.request.url
        let timings = readTimings()
        guard code == CURLE_OK else {
            return .failure(error(for: code, timings: timings))
        }
        let status = Int(readLong(CURLINFO_RESPONSE_CODE))
        let location = (300...399).contains(status) ? readString(CURLINFO_REDIRECT_URL) : nil
        let response = FetchResponse(
            url: url,
            status: status,
            httpVersion: Self.versionName(readLong(CURLINFO_HTTP_VERSION)),
            headers: headers,
            body: body,
            location: location,
            wireBodyBytes: Int(readOffT(CURLINFO_SIZE_DOWNLOAD_T)),
            remoteAddress: readString(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 },
            remotePort: readLong(CURLINFO_PRIMARY_PORT) > 0 ? Int(readLong(CURLINFO_PRIMARY_PORT)) : nil,
            timings: timings)
        return .success(response)
    }

    private func error(for code: CURLcode, timings: FetchTimings) -> FetchError {
        let curlCode = CurlCode(rawValue: Int32(code.rawValue))
        let libcurlMessage = errorMessage ?? String(cString: curl_easy_strerror(code))
        func failure(_ kind: FetchError.Kind, _ message: String) -> FetchError {
            FetchError(kind: kind, url: job.request.url, message: message, curlCode: curlCode)
        }
        if let abortReason {
            let limitFailure = { (kind: FetchError.Kind, message: String) -> FetchError in
                var error = failure(kind, message)
                error.heldBodyBytes = self.body.count
                return error
            }
            switch abortReason {
            case .bodyTooLarge(let limit):
                return limitFailure(.bodyTooLarge, "aborted: the decoded body exceeded the \(limit)-byte limit")
            case .decompressionRatio(let decoded, let wire, let limit):
                return limitFailure(
                    .decompressionRatioExceeded,
                    "aborted: \(decoded) decoded bytes from \(wire) received exceed the \(limit):1 decompression ratio limit"
                )
            case .headersTooLarge:
                return failure(.protocolError, "aborted: response headers exceeded \(Self.maxHeaderBytes) bytes")
            }
        }
        if let refusedAddress, code == CURLE_COULDNT_CONNECT {
            let range = refusedAddress.specialRange?.rawValue ?? "special"
            return failure(
                .addressNotAllowed,
                "refused to connect to \(refusedAddress) (\(range) address); --allow-private-network permits it")
        }
        switch curlCode {
        case .unsupportedProtocol: return failure(.unsupportedScheme, libcurlMessage)
        case .urlMalformed: return failure(.invalidURL, libcurlMessage)
        case .couldNotResolveHost: return failure(.dnsFailure, libcurlMessage)
        case .couldNotConnect: return failure(.connectionFailed, libcurlMessage)
        case .operationTimedOut: return failure(timeoutKind(timings, message: libcurlMessage), libcurlMessage)
        case .sendError, .receiveError: return failure(.connectionReset, libcurlMessage)
        case .gotNothing: return failure(.emptyReply, libcurlMessage)
        case .partialFile: return failure(.truncatedBody, libcurlMessage)
        case .badContentEncoding: return failure(.badContentEncoding, libcurlMessage)
        case .fileSizeExceeded: return failure(.bodyTooLarge, libcurlMessage)
        case .weirdServerReply, .http2, .http2Stream: return failure(.protocolError, libcurlMessage)
        case .sslConnectError, .peerFailedVerification: return failure(.tls, libcurlMessage)
        default:
            // Certificate and TLS library codes (58, 59, 66, 77, 80, 83, 90, 91, 98) are all TLS.
            if [58, 59, 66, 77, 80, 83, 90, 91, 98].contains(curlCode.rawValue) {
                return failure(.tls, libcurlMessage)
            }
            return failure(.other, libcurlMessage)
        }
    }

    /// libcurl reports every timeout as `CURLE_OPERATION_TIMEDOUT`; which limit fired is told first by
    /// its message, which names it (the same words since libcurl 7.x: `lib/speedcheck.c` "Operation too
    /// slow", `lib/connect.c` and `lib/multi.c` "Connection timed out" / "Resolving timed out", `lib/vtls/openssl.c`
    /// "SSL connection timeout", and "Operation timed out"), then by how far the transfer got and how long it ran. The timings alone
    /// mislead on a reused connection, whose connect time is zero.
    private func timeoutKind(_ timings: FetchTimings, message: String) -> FetchError.Kind {
        if message.contains("too slow") { return .lowSpeedTimeout }
        if message.hasPrefix("Connection timed out") || message.hasPrefix("Connection timeout")
            || message.hasPrefix("Resolving timed out") || message.hasPrefix("SSL connection timeout")
        {
            return .connectTimeout
        }
        if message.hasPrefix("Operation timed out") { return .totalTimeout }
        let connected =
            timings.firstByte > .zero
            || timings.connect > .zero
                && (job.target.scheme == "http" || timings.tlsHandshake > .zero)
        if !connected { return .connectTimeout }
        let limit = configuration.totalTimeout
        if timings.total >= limit - .milliseconds(limit.wholeMilliseconds / 50 + 5) { return .totalTimeout }
        return .lowSpeedTimeout
    }

    private func readTimings() -> FetchTimings {
        func time(_ info: CURLINFO) -> Duration { .microseconds(readOffT(info)) }
        return FetchTimings(
            nameLookup: time(CURLINFO_NAMELOOKUP_TIME_T),
            connect: time(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: time(CURLINFO_APPCONNECT_TIME_T),
            firstByte: time(CURLINFO_STARTTRANSFER_TIME_T),
            total: time(CURLINFO_TOTAL_TIME_T))
    }

    private func readLong(_ info: CURLINFO) -> Int {
        var value = 0
        return sl_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    private func readOffT(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return sl_easy_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    private func readString(_ info: CURLINFO) -> String? {
        // The string belongs to the handle (https://curl.se/libcurl/c/curl_easy_getinfo.html): copy it, never free it.
        var pointer: UnsafeMutablePointer<CChar>?
        guard sl_easy_getinfo_string(handle, info, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func versionName(_ value: Int) -> String {
        switch value {
        case Int(CURL_HTTP_VERSION_1_0): return "1.0"
        case Int(CURL_HTTP_VERSION_1_1): return "1.1"
        case Int(CURL_HTTP_VERSION_2_0): return "2"
        case Int(CURL_HTTP_VERSION_3): return "3"
        default: return "unknown"
        }
    }
}
