import SafeText

/// What an account's e-mail, names and password may be: the API's sign-up and changes and the
/// operator's `user add` and `user reset-password` ask these same rules. Each answer is the
/// message to show, or `nil` when the text is acceptable.
package enum AccountRules {
    /// Checks a new password; `nil` when acceptable.
    package static func passwordProblem(_ password: String) -> String? {
        if password.count < 8 { return "The password must have at least 8 characters." }
        if password.utf8.count > 72 { return "The password must be at most 72 bytes." }
        // bcrypt stops at a NUL byte: everything after it would be ignored.
        if password.utf8.contains(0) { return "The password must not contain a NUL character." }
        return nil
    }

    /// Checks an email; `nil` when acceptable. Control characters (C0, DEL, C1, bidi) are
    /// refused, not stripped: what the person typed is what they log in with. So are characters
    /// that print as nothing (`SafeText.containsInvisible`): `ada\u{200B}@example.com` would
    /// print as Ada's address on every list of accounts. (Canonical forms, `EmailKey`, catch
    /// what prints differently but means the same.)
    package static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@")
        if parts.count != 2 || email.count > 254 || email.contains(where: \.isWhitespace) || SafeText.containsControls(email) {
            return "Enter a valid email address."
        }
        if SafeText.containsInvisible(email) { return "The email address must not contain invisible characters." }
        return nil
    }

    /// Checks a first or last name (`what`: "first name"); `nil` when acceptable. Control
    /// characters are refused so that no name can act on a terminal that lists accounts, and
    /// invisible ones so that no name prints as another's.
    package static func nameProblem(_ name: String, _ what: String, maxBytes: Int) -> String? {
        if name.isEmpty || name.utf8.count > maxBytes { return "Enter a \(what)." }
        if SafeText.containsControls(name) { return "The \(what) must not contain control characters." }
        if SafeText.containsInvisible(name) { return "The \(what) must not contain invisible characters." }
        return nil
    }
}
