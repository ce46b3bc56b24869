/// Random identifiers from the system's cryptographic generator (`getrandom` on Linux).
package enum RandomID {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// `length` characters of [A-Za-z0-9]: 10 for objectIds as Parse made them; 32 (≈190 bits) for sessions.
    package static func alphanumeric(_ length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return alphanumeric(length, using: &generator)
    }

    package static func alphanumeric(_ length: Int, using generator: inout some RandomNumberGenerator) -> String {
        String((0..<length).map { _ in alphanumerics[Int(generator.next(upperBound: UInt(alphanumerics.count)))] })
    }

    /// A 10-digit account key like Udacity's ("3903878747"), never starting with 0.
    package static func accountKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(UInt64(1_000_000_000) + generator.next(upperBound: UInt64(9_000_000_000)))
    }
}
