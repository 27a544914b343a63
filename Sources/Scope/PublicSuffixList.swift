internal import CPSL

/// The process-wide Public Suffix List: one libpsl context, loaded once, read by every thread.
///
/// Loading: `psl_latest(NULL)` picks the newest of libpsl's built-in list and the system's
/// file (Debian's `publicsuffix` package installs `/usr/share/publicsuffix/public_suffix_list.dafsa`)
/// (https://rockdaboot.github.io/libpsl/libpsl-Public-Suffix-List-functions.html#psl-latest).
/// The `static let` runs that exactly once, on first use, and Swift makes that initialization
/// thread safe.
///
/// Thread safety: after loading, the context is never written. libpsl's lookups take a
/// `const psl_ctx_t *` and keep their working state on the stack (libpsl's README: "is
/// thread-safe"), so concurrent lookups on the one shared context are safe. That is why this
/// owner is `@unchecked Sendable`: it holds no mutable Swift state and its C state is read-only.
final class PublicSuffixList: @unchecked Sendable {
    /// The shared list; `nil` only when libpsl has neither built-in data nor a readable system file.
    static let shared: PublicSuffixList? = PublicSuffixList()

    /// Owned: freed with `psl_free` in `deinit` (never, for the shared instance).
    private let context: OpaquePointer

    private init?() {
        guard let context = psl_latest(nil) else { return nil }
        self.context = context
    }

    deinit {
        // psl_latest's result is released with psl_free, whichever source it came from.
        psl_free(context)
    }

    /// The shortest private suffix of `domain` (its eTLD+1), or `nil` when `domain` is itself a
    /// public suffix or has none.
    ///
    /// libpsl expects international names either as lowercase NFKC UTF-8 or as ASCII punycode
    /// (A-labels); callers pass the lowercase ASCII form ``HostName`` produces. The C function returns
    /// a pointer into its argument, so the answer is copied before the buffer goes away.
    func registrableDomain(of domain: String) -> String? {
        domain.withCString { pointer in
            psl_registrable_domain(context, pointer).map { String(cString: $0) }
        }
    }
}
