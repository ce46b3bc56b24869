import Foundation
import ServerStorage

/// Sign-up invite codes: 20 random letters and digits (≈119 bits), stored only as SHA-256.
package enum InviteCode {
    package static func make() -> String { RandomID.alphanumeric(20) }

    /// The stored form of a code (surrounding spaces, as pasted, do not count).
    package static func hash(_ code: String) -> String {
        SHA256.hex(code.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// How `invite list` names an invite: the first 12 hex digits of its hash.
    package static func id(ofHash hash: String) -> String { String(hash.prefix(12)) }
}
