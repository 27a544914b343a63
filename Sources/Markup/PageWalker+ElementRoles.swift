extension PageWalker {
    /// What the walk needs to know of an element from its name alone: whether it is one of the elements
    /// read for what they say, and its traits for the visible text.
    ///
    /// Looked up by ``PackedName``, read off libxml2's name: a page of thousands of elements makes no string
    /// of a name and hashes none, which showed as a few percent of a crawl's time in its profile.
    struct ElementRole {
        /// The elements read for what they say; every element is also read for its attributes.
        enum Kind { case other, base, title, meta, link, anchor, script }

        var kind: Kind
        var traits: VisibleText.ElementTraits

        /// An element with neither.
        static let plain = ElementRole(kind: .other, traits: [])
    }

    /// The role of `node`, an element.
    static func role(of node: HTMLNode) -> ElementRole {
        node.packedName.flatMap { roles.role(for: $0) } ?? .plain
    }

    /// The roles by packed name in an open-addressed table of 256 slots, found by the top bits of
    /// ``PackedName/mixed`` and linear probing: a `Dictionary` hashing the two words cost more than the
    /// rest of the look-up.
    struct RoleTable {
        private var keys: [PackedName?]
        private var values: [ElementRole]
        private static let slotBits = 8

        init(_ roles: [PackedName: ElementRole]) {
            let capacity = 1 << Self.slotBits
            precondition(roles.count <= capacity / 2, "a table of \(capacity) slots holds \(capacity / 2) names")
            keys = Array(repeating: nil, count: capacity)
            values = Array(repeating: .plain, count: capacity)
            for (key, role) in roles {
                var slot = Self.slot(of: key)
                while keys[slot] != nil { slot = (slot + 1) & (capacity - 1) }
                keys[slot] = key
                values[slot] = role
            }
        }

        /// The role of the name `key`; `nil` when the table has none.
        func role(for key: PackedName) -> ElementRole? {
            var slot = Self.slot(of: key)
            while let stored = keys[slot] {
                if stored == key { return values[slot] }
                slot = (slot + 1) & (keys.count - 1)
            }
            return nil
        }

        private static func slot(of key: PackedName) -> Int { Int(key.mixed >> UInt64(64 - slotBits)) }
    }

    /// Every name with a kind or traits (names of libxml2's HTML parser, lowercase).
    private static let roles = RoleTable(names)

    private static let names: [PackedName: ElementRole] = {
        var byName: [String: ElementRole] = [:]
        for (name, traits) in VisibleText.traitsByName {
            byName[name] = ElementRole(kind: .other, traits: traits)
        }
        let kinds: [(String, ElementRole.Kind)] = [
            ("base", .base), ("title", .title), ("meta", .meta), ("link", .link), ("a", .anchor), ("area", .anchor),
            ("script", .script),
        ]
        for (name, kind) in kinds {
            byName[name, default: .plain].kind = kind
        }
        var roles: [PackedName: ElementRole] = [:]
        for (name, role) in byName {
            guard let key = PackedName(name.utf8) else { preconditionFailure("<\(name)> is too long to pack") }
            roles[key] = role
        }
        return roles
    }()
}
