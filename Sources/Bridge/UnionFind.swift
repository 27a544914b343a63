/// Disjoint sets over `0..<count` with union by size and path halving: a sequence of n
/// operations runs in O(n α(n)), effectively linear.
struct UnionFind {
    private var parent: [Int32]
    private var size: [Int32]

    /// `count` singleton sets.
    init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = Array(repeating: 1, count: count)
    }

    /// Adds one singleton set and returns its element.
    mutating func add() -> Int {
        parent.append(Int32(parent.count))
        size.append(1)
        return parent.count - 1
    }

    /// The number of elements.
    var count: Int { parent.count }

    /// The representative of `element`'s set.
    mutating func find(_ element: Int) -> Int {
        var node = element
        while parent[node] != Int32(node) {
            let grandparent = parent[Int(parent[node])]
            parent[node] = grandparent
            node = Int(grandparent)
        }
        return node
    }

    /// Joins the sets of `a` and `b`; returns the new representative and whether two sets were joined.
    @discardableResult
    mutating func union(_ a: Int, _ b: Int) -> (root: Int, joined: Bool) {
        var rootA = find(a)
        var rootB = find(b)
        if rootA == rootB { return (rootA, false) }
        if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
        parent[rootB] = Int32(rootA)
        size[rootA] += size[rootB]
        return (rootA, true)
    }
}
