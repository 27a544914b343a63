import FixtureServer
import Testing

@testable import Markup

/// `PackedName`: the key the page walk looks element names up by, the same for the same name, different
/// for different ones.
@Suite("Packed element names")
struct PackedNameTests {
    @Test(
        "Bytes and a string of the same name pack alike, up to 16 bytes",
        arguments: ["a", "br", "meta", "script", "noscript", "blockquote", "figcaption", "abcdefghijklmnop", ""])
    func sameBothWays(name: String) {
        #expect(PackedName(Array(name.utf8)) == PackedName(name.utf8))
        #expect(PackedName(name.utf8) != nil)
    }

    @Test("A name longer than 16 bytes does not pack")
    func tooLong() {
        #expect(PackedName(Array("abcdefghijklmnopq".utf8)) == nil)
        #expect(PackedName("my-product-gallery".utf8) == nil)
    }

    @Test("Different names, different keys: prefixes, the eighth and ninth byte, the last")
    func distinct() {
        let names = ["a", "ab", "abbr", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefghijklmnop", "abcdefghijklmnoq"]
        let keys = names.compactMap { PackedName($0.utf8) }
        #expect(keys.count == names.count)
        #expect(Set(keys).count == names.count)
    }

    @Test("The role table finds every name it holds, even full to half its slots, and no other")
    func roleTable() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz-0123456789".utf8)
        var names: Set<[UInt8]> = []
        while names.count < 256 {
            names.insert((0..<Int.random(in: 1...16, using: &generator)).map { _ in letters.randomElement()! })
        }
        let stored = Array(names.prefix(128))
        var roles: [PackedName: PageWalker.ElementRole] = [:]
        for (index, name) in stored.enumerated() {
            roles[PackedName(name)!] = PageWalker.ElementRole(
                kind: index % 2 == 0 ? .meta : .link, traits: index % 3 == 0 ? .block : [])
        }
        let table = PageWalker.RoleTable(roles)
        for (key, role) in roles {
            #expect(table.role(for: key)?.kind == role.kind)
            #expect(table.role(for: key)?.traits == role.traits)
        }
        for name in names.dropFirst(128) {
            #expect(table.role(for: PackedName(name)!) == nil)
        }
    }
}
