/// Memory the tree builder appends to and the finished ``HTMLDocument`` then owns, with no copy
/// between the two: a plain buffer of trivial values that doubles as it fills. It is not a value type
/// (copies share the memory); the document frees it.
struct GrowingBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// The elements appended so far.
    var elements: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// The element at `index`, read and written in place.
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
        nonmutating unsafeMutableAddress { base + index }
    }

    mutating func append(_ element: Element) {
        reserve(1)
        (base + count).initialize(to: element)
        count += 1
    }

    /// Appends `length` elements from `source`, which must not point into this buffer.
    mutating func append(_ source: UnsafePointer<Element>, count length: Int) {
        reserve(length)
        (base + count).initialize(from: source, count: length)
        count += length
    }

    /// Appends a copy of the elements at `range`, already in this buffer.
    mutating func appendCopy(of range: Range<Int>) {
        reserve(range.count)
        (base + count).initialize(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Frees the memory; the buffer must not be used afterwards.
    func deallocate() {
        base.deallocate()
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
