/// Comparing secrets (a token, an XSRF pair) in time that does not tell where they differ.
package enum ConstantTime {
    /// Whether `given` equals `secret`, byte for byte; the time depends on `secret`'s length only.
    package static func equal(_ given: String, _ secret: String) -> Bool {
        let given = Array(given.utf8)
        let secret = Array(secret.utf8)
        var difference = given.count ^ secret.count
        for index in 0..<secret.count { difference |= Int(secret[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }
}
