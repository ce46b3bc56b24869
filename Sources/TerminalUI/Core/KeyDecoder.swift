/// Turns a character code from the terminal into an event: control codes become named keys.
public enum KeyDecoder {
    public static func character(code: UInt32) -> Event? {
        switch code {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 1...26:
            guard let scalar = Unicode.Scalar(code + 96) else { return nil }
            return .key(.control(Character(scalar)))
        default:
            guard code >= 32, let scalar = Unicode.Scalar(code) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }
}
