import HeapModule

/// Puts the rows of a word index built beside the store (``WordIndexSideBuild``) in increasing id order as
/// they arrive, nearly so, from the publisher.
///
/// FTS5 appends each term's new rowids to what it holds in memory and writes out everything it holds as a new
/// segment whenever a rowid is not above the previous one: items in the order a publish writes them (rank
/// buckets interleaved) would make a segment every few rows, and merging those costs more than the index. The
/// publisher writes a whole index in the order of its plan's rank buckets and says, with each batch, below
/// which id nothing is still to come (its floor); rows below the floor are given in order, those above wait.
/// A row below one already given (a floor that was wrong: the store changed between the plan and the write)
/// is kept for the end, when the late rows go in id order, after the others: one more segment, never a
/// wrong index.
struct WordIndexRowOrder {
    private var waiting = Heap<Entry>()
    private var late: [WordIndexSideBuild.Row] = []
    private var lastGiven: Int64?

    /// How many rows wait for the floor to pass them.
    var waitingCount: Int { waiting.count }
    /// How many rows came below one already given.
    var lateCount: Int { late.count }

    /// Takes `rows` and returns, in increasing id order, every waiting row below `floor`: no row to come has a
    /// lower id than `floor`.
    mutating func take(_ rows: [WordIndexSideBuild.Row], floor: Int64) -> [WordIndexSideBuild.Row] {
        for row in rows {
            if let lastGiven, row.id <= lastGiven {
                late.append(row)
            } else {
                waiting.insert(Entry(row: row))
            }
        }
        var ready: [WordIndexSideBuild.Row] = []
        while let lowest = waiting.min, lowest.row.id < floor {
            ready.append(waiting.removeMin().row)
        }
        if let last = ready.last { lastGiven = last.id }
        return ready
    }

    /// Every row not yet given: the waiting ones in id order, then the late ones in id order.
    mutating func rest() -> [WordIndexSideBuild.Row] {
        var ready: [WordIndexSideBuild.Row] = []
        ready.reserveCapacity(waiting.count + late.count)
        while let entry = waiting.popMin() { ready.append(entry.row) }
        ready.append(contentsOf: late.sorted { $0.id < $1.id })
        late = []
        if let last = ready.last { lastGiven = last.id }
        return ready
    }

    /// A waiting row, ordered by its id.
    private struct Entry: Comparable {
        var row: WordIndexSideBuild.Row
        static func < (left: Entry, right: Entry) -> Bool { left.row.id < right.row.id }
        static func == (left: Entry, right: Entry) -> Bool { left.row.id == right.row.id }
    }
}
