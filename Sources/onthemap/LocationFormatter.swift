import Foundation
import OnTheMapModels
import SafeText
import TerminalUI
import ViewModels

/// The output formats of `onthemap list`.
enum LocationFormatter {
    /// JSON: an array of records with the wire field names. Escaping makes it terminal-safe.
    static func json(_ locations: [StudentInformation]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Escaping the controls (rather than cleaning the fields) keeps the data exact and the
        // output terminal-safe.
        let text = String(decoding: try encoder.encode(locations), as: UTF8.self)
        return SafeText.escapingControls(inJSON: text) + "\n"
    }

    /// CSV (RFC 4180), text cleaned, and cells that a spreadsheet would run as a formula quoted with `'`.
    static func csv(_ locations: [StudentInformation]) -> String {
        var lines = ["objectId,uniqueKey,firstName,lastName,mapString,mediaURL,latitude,longitude,createdAt,updatedAt"]
        for location in locations {
            let fields =
                [
                    location.objectId, location.uniqueKey, location.firstName, location.lastName, location.mapString,
                    location.mediaURL,
                ].map(csvCell) + [
                    String(location.latitude), String(location.longitude),
                    location.createdAt.map(WireDate.string(from:)) ?? "",
                    location.updatedAt.map(WireDate.string(from:)) ?? "",
                ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A fixed-width table for people: updated, name, place, link. With `hyperlinks`, each link
    /// that `LinkPolicy` accepts is an OSC 8 hyperlink to its cleaned, completed URL; a refused
    /// one stays plain text.
    static func table(_ locations: [StudentInformation], now: Date = Date(), hyperlinks: Bool = false) -> String {
        var lines = [row("UPDATED", "NAME", "PLACE", "LINK")]
        for location in locations {
            var line = row(
                location.updatedAt.map { AgeText.text(from: $0, now: now) } ?? "–",
                SafeText.clean(location.fullName), SafeText.clean(location.mapString), "")
            let shown = SafeText.truncate(SafeText.clean(location.mediaURL), toWidth: 50)
            if hyperlinks, case .open(let url) = LinkPolicy.decide(location.mediaURL) {
                line += TerminalEscape.hyperlink(url, text: shown)
            } else {
                line += shown
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ updated: String, _ name: String, _ place: String, _ link: String) -> String {
        SafeText.pad(updated, toWidth: 14) + "  " + SafeText.pad(name, toWidth: 24) + "  "
            + SafeText.pad(place, toWidth: 28)
            + "  " + SafeText.truncate(link, toWidth: 50)
    }

    private static func csvCell(_ raw: String) -> String {
        var text = SafeText.clean(raw)
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        if text.contains(where: { $0 == "," || $0 == "\"" }) {
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return text
    }
}
