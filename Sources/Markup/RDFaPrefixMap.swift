/// The RDFa prefix mappings in force at the element being read: the initial context's, then those its
/// ancestors and the element itself declared, the nearest winning.
///
/// One table, changed in place when the walk enters an element with `prefix` and put back when it leaves
/// the element's subtree: a declaration costs one entry in and one out, whatever lies below it. (A table
/// per element that declares, copied from its parent's, made a page of many small declarations under one
/// large one cost their product in time and memory.)
struct RDFaPrefixMap {
    /// A point to put the table back to: the number of changes made before it.
    typealias Mark = Int

    private var table: [String: String]
    /// Each change made, with the value it replaced, in order.
    private var changes: [(prefix: String, replaced: String?)] = []

    /// The table `initial` holds.
    init(_ initial: [String: String]) {
        table = initial
    }

    /// Where the table stands now, for ``restore(_:)``.
    var mark: Mark { changes.count }

    /// The namespace `prefix` (lowercase) stands for.
    subscript(prefix: String) -> String? { table[prefix] }

    /// Adds `declarations` (prefix → namespace), replacing what a prefix stood for until then.
    mutating func declare(_ declarations: [String: String]) {
        for (prefix, namespace) in declarations {
            changes.append((prefix, table.updateValue(namespace, forKey: prefix)))
        }
    }

    /// Takes back every declaration made since `mark`, latest first.
    mutating func restore(_ mark: Mark) {
        while changes.count > mark, let (prefix, replaced) = changes.popLast() {
            table[prefix] = replaced
        }
    }
}
