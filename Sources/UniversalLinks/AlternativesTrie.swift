/// A substitution variable's values as ``GlobPattern`` compares them, merged into a trie: values that
/// share a prefix share its nodes. Built once per variable and ``MatchOptions`` combination when the file
/// is read (``SubstitutionVariables``), not once per pattern that names the variable.
struct AlternativesTrie: Sendable {
    /// Each trie node's outgoing edges, in the order the values first took them; node 0 is the root.
    private(set) var children: [[(token: GlobPattern.Token, child: Int)]] = [[]]
    /// Whether a value ends at each node.
    private(set) var isEnd = [false]
    /// The automaton nodes ``GlobPattern`` needs for the trie: one per edge, one per end, and a split
    /// for each node with other than one way on.
    private(set) var nodeCount = 0

    /// The trie of `values`, each tokenized as pattern text without variables. Each token costs one
    /// hashed look-up, so building is linear in the values' length.
    init(_ values: [String], _ options: MatchOptions) {
        var edges: [Edge: Int] = [:]
        for value in values {
            // Without variables, tokenizing cannot fail.
            let tokens = (try? GlobPattern.tokens(value, options, variablesAllowed: false)) ?? []
            var node = 0
            for token in tokens {
                if let child = edges[Edge(parent: node, token: token)] {
                    node = child
                    continue
                }
                children.append([])
                isEnd.append(false)
                let child = children.count - 1
                children[node].append((token, child))
                edges[Edge(parent: node, token: token)] = child
                node = child
            }
            isEnd[node] = true
        }
        for index in children.indices {
            let branching = children[index].count + (isEnd[index] ? 1 : 0)
            nodeCount += children[index].count + (isEnd[index] ? 1 : 0) + (branching == 1 ? 0 : 1)
        }
    }

    private struct Edge: Hashable {
        var parent: Int
        var token: GlobPattern.Token
    }
}
