/// Decodes standard base64 held in a static string (the generated data files).
enum Base64 {
    static func decode(_ text: StaticString) -> [UInt8] {
        guard text.hasPointerRepresentation else { return [] }
        let buffer = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return decode(buffer)
    }

    static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = table[Int(byte)]
            if value == 255 { continue }  // padding, whitespace
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
