extension GlobPattern {
    /// Whether the pattern matches all of `text`, or nil when `budget` ran out first.
    ///
    /// Runs the automaton over `text` once, keeping the set of live nodes (Thompson simulation): the
    /// work is at most one step per live node per scalar, and each step is taken from `budget`.
    ///
    /// Pruning keeps the live set small on patterns like `*a*a*a*…`: every path to the end passes
    /// through each top-level `*` (it is not inside a variable's alternatives), and once such a star
    /// is live it can swallow whatever an earlier node would still have consumed before reaching it.
    /// So a live node numbered below the highest live top-level star can be dropped without changing
    /// the answer; a plain glob then never has more live nodes than the literal run after its last
    /// live star. (The same dominance argument is what makes the greedy "backtrack to the last star"
    /// glob algorithm correct.)
    func matches(_ text: [Unicode.Scalar], budget: inout Int) -> Bool? {
        var simulation = Simulation(nodeCount: nodes.count)
        var live: [Int] = []
        var next: [Int] = []
        simulation.addClosure(of: 0, in: nodes, to: &live)
        for scalar in text {
            simulation.generation += 1
            next.removeAll(keepingCapacity: true)
            for index in live {
                budget -= 1
                if budget < 0 { return nil }
                switch nodes[index] {
                case .scalar(let expected, let target) where expected == scalar:
                    simulation.addClosure(of: target, in: nodes, to: &next)
                case .any(let target):
                    simulation.addClosure(of: target, in: nodes, to: &next)
                case .scalarClass(let scalarClass, let target) where scalarClass.contains(scalar):
                    simulation.addClosure(of: target, in: nodes, to: &next)
                case .star:
                    simulation.addClosure(of: index, in: nodes, to: &next)
                default:
                    break
                }
            }
            prune(&next)
            if next.isEmpty { return false }
            swap(&live, &next)
        }
        return live.contains { if case .accept = nodes[$0] { true } else { false } }
    }

    /// Drops live nodes numbered below the highest live top-level star (see ``matches(_:budget:)``).
    private func prune(_ live: inout [Int]) {
        var highestStar = -1
        var lowest = Int.max
        for index in live {
            lowest = min(lowest, index)
            if index > highestStar, case .star(_, true) = nodes[index] { highestStar = index }
        }
        if highestStar > lowest { live.removeAll { $0 < highestStar } }
    }
}

/// The scratch state of one run: which nodes are already in the set being built (`marks` holds the
/// generation that added them, so clearing is free) and a reusable stack for the closure walk.
private struct Simulation {
    var marks: [Int]
    var generation = 0
    var pending: [Int] = []

    init(nodeCount: Int) {
        marks = [Int](repeating: -1, count: nodeCount)
    }

    /// Adds `start` and every node reachable from it without consuming to `list`, once each. Only
    /// nodes that consume (or accept) are listed; `split`s are passed through.
    mutating func addClosure(of start: Int, in nodes: [GlobPattern.Node], to list: inout [Int]) {
        pending.append(start)
        while let index = pending.popLast() {
            guard marks[index] != generation else { continue }
            marks[index] = generation
            switch nodes[index] {
            case .split(let targets):
                pending.append(contentsOf: targets)
            case .star(let target, _):
                list.append(index)
                pending.append(target)
            default:
                list.append(index)
            }
        }
    }
}
