internal import ASCIIText

extension IPAddressText {
    /// The IPv6 parser (https://url.spec.whatwg.org/#concept-ipv6-parser), on the text between the brackets.
    static func parseIPv6(_ input: [Unicode.Scalar]) -> [UInt16]? {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func at(_ index: Int) -> Unicode.Scalar? { index < input.count ? input[index] : nil }
        func hex(_ scalar: Unicode.Scalar?) -> UInt16? {
            guard let scalar, scalar.isASCII else { return nil }
            return Hex.value(of: UInt8(scalar.value)).map(UInt16.init)
        }
        if at(0) == ":" {
            guard at(1) == ":" else { return nil }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while at(pointer) != nil {
            guard pieceIndex < 8 else { return nil }
            if at(pointer) == ":" {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let digit = hex(at(pointer)) {
                value = value << 4 | digit
                pointer += 1
                length += 1
            }
            if at(pointer) == "." {
                guard length > 0 else { return nil }
                pointer -= length
                guard pieceIndex <= 6, let pieces = parseEmbeddedIPv4(input, from: pointer) else { return nil }
                address[pieceIndex] = pieces.0
                address[pieceIndex + 1] = pieces.1
                pieceIndex += 2
                pointer = input.count
                break
            } else if at(pointer) == ":" {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// The dotted IPv4 tail of an IPv6 address (`::ffff:1.2.3.4`) as two pieces.
    private static func parseEmbeddedIPv4(_ input: [Unicode.Scalar], from start: Int) -> (UInt16, UInt16)? {
        var numbersSeen = 0
        var pieces: [UInt16] = [0, 0]
        var pointer = start
        while pointer < input.count {
            var value: Int?
            if numbersSeen > 0 {
                guard input[pointer] == ".", numbersSeen < 4 else { return nil }
                pointer += 1
            }
            guard pointer < input.count, digitValue(input[pointer]) != nil else { return nil }
            while pointer < input.count, let digit = digitValue(input[pointer]) {
                if value == 0 { return nil }
                value = (value ?? 0) * 10 + digit
                guard let current = value, current <= 255 else { return nil }
                pointer += 1
            }
            let piece = numbersSeen / 2
            pieces[piece] = pieces[piece] << 8 | UInt16(value ?? 0)
            numbersSeen += 1
        }
        guard numbersSeen == 4 else { return nil }
        return (pieces[0], pieces[1])
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        ("0"..."9").contains(scalar) ? Int(scalar.value) - 0x30 : nil
    }

    /// Lower-case hex pieces, the first longest run of two or more zero pieces written as `::`.
    package static func serializeIPv6(_ pieces: [UInt16]) -> String {
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < pieces.count {
            guard pieces[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < pieces.count, pieces[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        var output = ""
        var ignoreZero = false
        for (position, piece) in pieces.enumerated() {
            if ignoreZero, piece == 0 { continue }
            ignoreZero = false
            if position == bestStart {
                output += position == 0 ? "::" : ":"
                ignoreZero = true
                continue
            }
            output += String(piece, radix: 16)
            if position != pieces.count - 1 { output += ":" }
        }
        return output
    }
}
