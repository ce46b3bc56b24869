import Foundation

/// The one canonical form of an e-mail address (Docs/Security.md, "One e-mail, one account"),
/// computed here in Swift and stored beside the address as typed (`account.email_key`), so that
/// SQLite and PostgreSQL find and refuse exactly the same addresses: Unicode NFKC and full case
/// folding (`ａlice@` and `ALICE@` are `alice@`, `straße@` is `strasse@`, an NFD `éve@` is the
/// NFC one), and a dot above on an `i` or `j` (which have one already) dropped, so that `alİce@`
/// — whose `İ` folds to `i` + U+0307 — is `alice@` too.
package enum EmailKey {
    package static func canonical(_ email: String) -> String {
        let folded = email.precomposedStringWithCompatibilityMapping.folding(options: [.caseInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in folded.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.value == 0x0307, let previous, previous == "i" || previous == "j" { continue }
            scalars.append(scalar)
            previous = scalar
        }
        return String(scalars).precomposedStringWithCompatibilityMapping
    }
}

/// An account whose address is another's once canonical (`EmailKey`), found when the canonical
/// form was introduced: it keeps its address and logs in with exactly that address, without a
/// canonical key, until the operator deletes or merges one of the two; the migration reports it
/// (every time the database is opened) instead of merging anything.
public struct EmailKeyCollision: Sendable, Hashable, CustomStringConvertible {
    package var key: String
    package var email: String
    /// The older account that holds the canonical form.
    package var holderKey: String
    package var holderEmail: String

    package init(key: String, email: String, holderKey: String, holderEmail: String) {
        self.key = key
        self.email = email
        self.holderKey = holderKey
        self.holderEmail = holderEmail
    }

    public var description: String {
        "accounts \(holderKey) (\(holderEmail)) and \(key) (\(email)) have the same e-mail once canonical; \(key) keeps its address but no canonical key — delete or change one of them (nothing was merged)"
    }
}
