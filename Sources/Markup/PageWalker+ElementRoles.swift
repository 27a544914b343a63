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
        node.packedName.flatMap { roles[$0] } ?? .plain
    }

    /// Every name with a kind or traits (names of libxml2's HTML parser, lowercase).
    private static let roles: [PackedName: ElementRole] = {
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
