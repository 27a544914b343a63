internal import CCurl

/// Owns one libcurl easy handle (`CURL *`), freed in `deinit`.
///
/// The loop reuses handles across transfers: `curl_easy_reset` restores every option
/// to its default but keeps the handle's allocations and caches
/// (https://curl.se/libcurl/c/curl_easy_reset.html), which saves an allocation-heavy
/// `curl_easy_init` per request. Used on the curl thread only.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
    }

    deinit {
        curl_easy_cleanup(raw)
    }

    /// Clears every option, including pointers into the transfer that used the handle last.
    func reset() {
        curl_easy_reset(raw)
    }
}

@available(*, unavailable, message: "an easy handle belongs to the curl thread")
extension CurlEasyHandle: Sendable {}
