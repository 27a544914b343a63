/// A compiled universal-links pattern: `*` matches zero or more characters, `?` exactly one (so `?*`
/// is one or more), `$(name)` any value of a substitution variable, anything else itself. A pattern
/// matches the whole of its URL component. "Character" means Unicode scalar.
///
/// The pattern becomes a small nondeterministic automaton that ``matches(_:budget:)`` runs over the
/// text in one pass (Thompson's construction), so no input makes matching exponential. Nodes are
/// numbered left to right in pattern order, which the matcher uses to prune (see there).
struct GlobPattern: Sendable {
    enum Node: Sendable {
        /// Consumes this scalar, then goes on at `next`.
        case scalar(Unicode.Scalar, next: Int)
        /// `?`: consumes any one scalar.
        case any(next: Int)
        /// `$(alpha)` and friends: consumes one scalar of the class.
        case scalarClass(ScalarClass, next: Int)
        /// `*`: consumes any scalar and stays, or goes on at `next` without consuming. `topLevel` is
        /// true for a star of the pattern itself, false for one inside a variable's value.
        case star(next: Int, topLevel: Bool)
        /// Goes on at each target without consuming (a variable's alternatives); no targets is a dead end.
        case split([Int])
        /// The end of the pattern.
        case accept
    }

    /// Why a pattern was rejected.
    struct CompileError: Error, Sendable {
        var reason: String
    }

    /// What compiling needs besides the pattern text.
    struct Context: Sendable {
        var options = MatchOptions()
        /// The variables `$(name)` may use, or nil when `$(` is plain text (legacy `paths`).
        var variables: SubstitutionVariables?
        var maximumLength = 1_024
        var maximumNodes = 16_384
    }

    enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        case any
        case star
        case variable(String)
    }

    /// The pattern as written in the file.
    let source: String
    private(set) var nodes: [Node] = []
    private let maximumNodes: Int

    /// Compiles `source`.
    ///
    /// - Throws: ``CompileError`` for an unterminated `$(`, an unknown variable, a pattern longer than
    ///   `context.maximumLength` scalars, or one that needs more than `context.maximumNodes` nodes.
    init(_ source: String, _ context: Context) throws(CompileError) {
        self.source = source
        maximumNodes = context.maximumNodes
        let length = source.unicodeScalars.count
        guard length <= context.maximumLength else {
            throw CompileError(
                reason: "the pattern is \(length) characters long, over the limit of \(context.maximumLength)")
        }
        var previousWasStar = false
        for token in try Self.tokens(source, context.options, variablesAllowed: context.variables != nil) {
            switch token {
            case .literal(let scalar): try append(.scalar(scalar, next: nodes.count + 1))
            case .any: try append(.any(next: nodes.count + 1))
            case .star:
                // `**` means the same as `*`; one node keeps the automaton small.
                if !previousWasStar { try append(.star(next: nodes.count + 1, topLevel: true)) }
            case .variable(let name):
                switch context.variables?.meaning(of: name, context.options) {
                case .scalarClass(let scalarClass):
                    let folded = context.options.caseSensitive ? scalarClass : scalarClass.caseFolded
                    try append(.scalarClass(folded, next: nodes.count + 1))
                case .values(let trie):
                    try appendAlternatives(trie)
                case nil:
                    throw CompileError(reason: "unknown substitution variable $(\(name))")
                }
            }
            previousWasStar = token == .star
        }
        try append(.accept)
    }

    /// Splits `text` into tokens; literal runs are brought into the compared form (``MatchText``).
    static func tokens(
        _ text: String, _ options: MatchOptions, variablesAllowed: Bool
    ) throws(CompileError) -> [Token] {
        var tokens: [Token] = []
        var literal = ""
        func flush() {
            tokens += MatchText.pattern(literal, options).unicodeScalars.map(Token.literal)
            literal = ""
        }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "*" || scalar == "?" {
                flush()
                tokens.append(scalar == "*" ? .star : .any)
            } else if variablesAllowed, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(" {
                guard let close = scalars[(index + 2)...].firstIndex(of: ")") else {
                    throw CompileError(reason: "unterminated substitution variable: \"$(\" without \")\"")
                }
                flush()
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[(index + 2)..<close])
                tokens.append(.variable(String(name)))
                index = close
            } else {
                literal.unicodeScalars.append(scalar)
            }
            index += 1
        }
        flush()
        return tokens
    }

    @discardableResult
    private mutating func append(_ node: Node) throws(CompileError) -> Int {
        guard nodes.count < maximumNodes else {
            throw CompileError(reason: "the pattern needs more than \(maximumNodes) automaton states")
        }
        nodes.append(node)
        return nodes.count - 1
    }

    /// Appends a variable's values (a trie: shared prefixes once, so `$(lang)` costs one node per distinct
    /// prefix) whose ends all continue after the variable. A trie that cannot fit is refused before any
    /// node is added, so a file of many rules naming a large variable pays nothing per rule for it.
    private mutating func appendAlternatives(_ trie: AlternativesTrie) throws(CompileError) {
        guard nodes.count + trie.nodeCount <= maximumNodes else {
            throw CompileError(reason: "the pattern needs more than \(maximumNodes) automaton states")
        }
        var exits: [Int] = []
        _ = try appendTrie(0, trie, &exits)
        for exit in exits { nodes[exit] = .split([nodes.count]) }
    }

    /// Appends the trie node `index` and everything under it; returns the index of its entry node.
    /// Recursion is as deep as the longest value, which the file's reader bounds.
    private mutating func appendTrie(_ index: Int, _ trie: AlternativesTrie, _ exits: inout [Int])
        throws(CompileError) -> Int
    {
        let branching = trie.children[index].count + (trie.isEnd[index] ? 1 : 0)
        let split = branching == 1 ? nil : try append(.split([]))
        var targets: [Int] = []
        if trie.isEnd[index] {
            let exit = try append(.split([]))  // patched to the continuation once it is known
            exits.append(exit)
            targets.append(exit)
        }
        for (token, child) in trie.children[index] {
            let edge = try append(.split([]))  // replaced below, once the child's entry is known
            let entry = try appendTrie(child, trie, &exits)
            switch token {
            case .literal(let scalar): nodes[edge] = .scalar(scalar, next: entry)
            case .any: nodes[edge] = .any(next: entry)
            case .star: nodes[edge] = .star(next: entry, topLevel: false)
            case .variable: nodes[edge] = .split([])  // values never contain variables (tokenized without)
            }
            targets.append(edge)
        }
        guard let split else { return targets[0] }
        nodes[split] = .split(targets)
        return split
    }
}
