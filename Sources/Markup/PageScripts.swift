/// What a page's served HTML says about its scripts: the facts the crawler's render rule
/// (Docs/markup.md, "When a page is rendered") reads.
package struct PageScripts: Sendable, Hashable {
    /// The resolved http(s) `src` of every executable `<script src>`, in document order, at most
    /// ``maxSources``.
    package var sources: [String] = []
    /// Executable `<script>` elements, with or without `src` (JSON-LD and other data blocks not counted).
    package var count = 0
    /// Whether the page has an empty application root: an element whose `id` is one that
    /// single-page-app frameworks mount into (``applicationRootIDs``), with no child element and no
    /// text but white space.
    package var hasEmptyApplicationRoot = false

    package init() {}

    /// The most script sources kept per page.
    package static let maxSources = 100

    /// The `id`s frameworks render into: React's and Vue's conventions, Next.js, Nuxt, Gatsby, Svelte, Angular's.
    package static let applicationRootIDs: Set<String> = [
        "root", "app", "__next", "__nuxt", "___gatsby", "svelte", "app-root", "application", "main-app",
    ]

    /// Whether a `<script type>` value (trimmed, lowercased) runs as script: no type, a JavaScript MIME type,
    /// or `module` (HTML's "script block's type string").
    package static func isExecutable(type: String) -> Bool {
        if type.isEmpty || type == "module" { return true }
        let mime = type.split(separator: ";").first.map(String.init) ?? type
        return [
            "text/javascript", "application/javascript", "application/ecmascript", "application/x-javascript",
            "application/x-ecmascript", "text/ecmascript", "text/jscript", "text/livescript",
        ].contains(mime.trimmingSpaces())
    }
}
