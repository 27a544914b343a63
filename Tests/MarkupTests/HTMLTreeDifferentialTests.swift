internal import CLibXML2
import FixtureServer
import Foundation
import TestSupport
import Testing

@testable import Markup

/// `HTMLDocument` builds its own tree from libxml2's SAX events; these tests hold it to the tree libxml2's
/// own builder makes of the same bytes (`htmlCtxtReadMemory` with the default handler and the same
/// options), node for node: kinds, names, attributes and their values, text, and element lines. Inputs:
/// every HTML-like file under `Fixtures/` (pages, sites, structured-data conformance, fuzz regressions),
/// and cuts and splices of them.
@Suite("The HTML tree is libxml2's tree")
struct HTMLTreeDifferentialTests {
    /// One line per node in document order: depth, kind, name or text, attributes, line.
    private static func outline(of node: HTMLNode, depth: Int, into lines: inout [String]) {
        let indent = String(repeating: " ", count: depth)
        if node.isElement {
            let attributes = node.attributes.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: " ")
            lines.append("\(indent)<\(node.name) \(attributes)> @\(min(node.line, 65_535))")
        } else if node.isText {
            lines.append("\(indent)\(node.text.debugDescription)")
        } else {
            lines.append("\(indent)other")
        }
        // The links the walks use besides these (last child, previous sibling, parent) must agree with them.
        var children: [Int32] = []
        var child = node.firstChild
        while let current = child {
            if current.parent?.index != node.index { lines.append("\(indent) BROKEN: parent of \(current.index)") }
            children.append(current.index)
            outline(of: current, depth: depth + 1, into: &lines)
            child = current.nextSibling
        }
        var backwards: [Int32] = []
        node.forEachChildReversed { backwards.append($0.index) }
        if backwards != children.reversed() || node.lastChild?.index != children.last {
            lines.append("\(indent) BROKEN: backward links of \(node.index)")
        }
    }

    private static func outline(of node: xmlNodePtr, depth: Int, into lines: inout [String]) {
        let indent = String(repeating: " ", count: depth)
        switch node.pointee.type {
        case XML_ELEMENT_NODE:
            var attributes: [String] = []
            var attribute = node.pointee.properties
            while let current = attribute {
                var value = ""
                var child = current.pointee.children
                while let text = child {
                    if let content = text.pointee.content { value += String(cString: content) }
                    child = text.pointee.next
                }
                attributes.append("\(String(cString: current.pointee.name))=\(value.debugDescription)")
                attribute = current.pointee.next
            }
            let name = String(cString: node.pointee.name)
            lines.append("\(indent)<\(name) \(attributes.joined(separator: " "))> @\(xmlGetLineNo(node))")
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            lines.append("\(indent)\((node.pointee.content.map { String(cString: $0) } ?? "").debugDescription)")
        default:
            lines.append("\(indent)other")
        }
        var child = node.pointee.children
        while let current = child {
            outline(of: current, depth: depth + 1, into: &lines)
            child = current.pointee.next
        }
    }

    /// The outline of libxml2's own tree of `html`, from its root element.
    private static func libxml2Outline(_ html: [UInt8]) -> [String]? {
        guard let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
                | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_NODEFDTD.rawValue)
        let document = html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), "http://example.com/", "UTF-8", options)
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { return [] }
        var lines: [String] = []
        outline(of: root, depth: 0, into: &lines)
        return lines
    }

    private static func ownOutline(_ html: [UInt8]) -> [String]? {
        HTMLDocument.withDocument(utf8: html, url: "http://example.com/") { document -> [String] in
            guard let root = document.root else { return [] }
            var lines: [String] = []
            outline(of: root, depth: 0, into: &lines)
            return lines
        }
    }

    /// The files compared: HTML pages and markup conformance inputs, whatever their extension.
    private static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        let root = Fixtures.root
        var found: [(String, [UInt8])] = []
        for folder in ["pages", "sites", "conformance/structured-data", "fuzz", "encoded"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where !url.hasDirectoryPath {
                let bytes = try [UInt8](Data(contentsOf: url))
                guard !bytes.isEmpty, bytes.contains(UInt8(ascii: "<")) else { continue }
                found.append((String(url.path.dropFirst(root.path.count + 1)), bytes))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The first difference between the two outlines, or `nil` when they agree.
    private static func difference(_ html: [UInt8]) -> String? {
        let own = ownOutline(html)
        let reference = libxml2Outline(html)
        guard own != reference else { return nil }
        guard let own, let reference else { return "one side has no document: \(own == nil) \(reference == nil)" }
        let index =
            (0..<min(own.count, reference.count)).first { own[$0] != reference[$0] } ?? min(own.count, reference.count)
        let ours = index < own.count ? own[index] : "(end)"
        let theirs = index < reference.count ? reference[index] : "(end)"
        if ProcessInfo.processInfo.environment["HTML_TREE_DUMP"] != nil {
            print("OURS\n" + own.joined(separator: "\n") + "\nLIBXML2\n" + reference.joined(separator: "\n"))
        }
        return "node \(index): ours \(ours.prefix(200)) / libxml2 \(theirs.prefix(200))"
    }

    @Test("Every fixture file gives libxml2's tree")
    func fixtures() throws {
        let inputs = try Self.inputs()
        #expect(inputs.count > 100)
        for input in inputs {
            if let difference = Self.difference(input.bytes) {
                Issue.record("\(input.name): \(difference)")
            }
        }
    }

    @Test("Cuts and splices of fixture files give libxml2's tree")
    func mutations() throws {
        let inputs = try Self.inputs()
        let environment = ProcessInfo.processInfo.environment
        var generator = SeededRandom(seed: environment["HTML_TREE_SEED"].flatMap { UInt64($0) } ?? 0x5EA2_C411)
        let rounds = environment["HTML_TREE_ROUNDS"].flatMap { Int($0) } ?? 600
        var failures = 0
        for round in 0..<rounds {
            let first = inputs[Int.random(in: inputs.indices, using: &generator)].bytes
            let second = inputs[Int.random(in: inputs.indices, using: &generator)].bytes
            let cut = Int.random(in: 0...first.count, using: &generator)
            let from = Int.random(in: 0...second.count, using: &generator)
            var html = Array(first[..<cut]) + Array(second[from...])
            if round % 3 == 0, !html.isEmpty {
                // A stray byte where a tag or text might be.
                let bytes: [UInt8] = Array("<>&\"'=/ \n\0".utf8) + [0xC3, 0xE2, 0xFF]
                html[Int.random(in: html.indices, using: &generator)] = bytes.randomElement(using: &generator)!
            }
            if let difference = Self.difference(html) {
                Issue.record("round \(round): \(difference)")
                failures += 1
                if failures >= 5 { return }
            }
        }
    }

    @Test(
        "A run of text or script past libxml2's 10,000,000-byte limit stops the parse there, as libxml2's builder does")
    func longText() {
        let long = String(repeating: "a", count: 10_000_500)
        // Text and CDATA both come in pieces of at most a few kilobytes, so each run here is joined many times.
        for html in ["<p>\(long)</p><div>after</div>", "<script>\(long)</script><div>after</div>"] {
            #expect(Self.difference(Array(html.utf8)) == nil)
        }
    }

    @Test(
        "Hand-picked constructs: boolean and valueless attributes, script and comments between text, stray ends",
        arguments: [
            "<p>a<!--x-->b<?pi x?>c</p>", "<select><option selected>x<option value>y</select><input checked disabled>",
            "<script>if (a < b) { x = '</div>' }</script><style>p{}</style>text", "</p></div>text</span><b>bold",
            "<html lang=en><body><html class=x><p>second html</p></body></html>trailing",
            "<table><tr><td>a<td>b</table>",
            "plain text only", "<!DOCTYPE html><title>t</title><meta charset=utf-8>&amp;&lt;&#x41;&bogus; &nbsp;",
            "<p>line one\nline two</p>\n\n<div\nclass=\"x\"\n>multi-line tag</div>",
            "<a href=x><div>block in a</div></a>",
            "<!-- first -->" + String(repeating: "<div id=d>", count: 300) + "deep" + "<p>after",
            "<!DOCTYPE html><html><body>x</body></html><div>after the end</div><!--c--><p>more",
            "<!--c--><html><body>x</body></html><div>after the end</div>",
            "<fb:like>x</fb:like><svg:title>t</svg:title><a:>y</a:><:b>z</:b><a:b:c>w</a:b:c>",
        ])
    func constructs(html: String) {
        #expect(Self.difference(Array(html.utf8)) == nil)
    }
}
