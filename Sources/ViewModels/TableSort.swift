import Foundation
import OnTheMapModels
import SafeText

/// How the table and the cards order the rows; `s` cycles through them.
public enum TableSort: String, Sendable, CaseIterable {
    case newest, name, distance, country

    /// The order after this one (wrapping).
    public var next: TableSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// `rows` (in the store's order: newest first) in this order. Stable: ties, and rows with
    /// no distance or no country (which go last), keep the newest-first order.
    public func apply(_ rows: [StudentInformation], home: GeoPoint?) -> [StudentInformation] {
        switch self {
        case .newest:
            return rows
        case .name:
            return stable(rows) { SafeText.clean($0.fullName).lowercased() }
        case .distance:
            guard home != nil else { return rows }
            let keyed = rows.enumerated().map { ($0.offset, $0.element, RowFacts.distance(of: $0.element, from: home) ?? .infinity) }
            return keyed.sorted { ($0.2, $0.0) < ($1.2, $1.0) }.map(\.1)
        case .country:
            return stable(rows) { RowFacts.country(of: $0).map { "0" + $0.lowercased() } ?? "1" }
        }
    }

    private func stable(_ rows: [StudentInformation], key: (StudentInformation) -> String) -> [StudentInformation] {
        rows.enumerated().map { ($0.offset, $0.element, key($0.element)) }
            .sorted { ($0.2, $0.0) < ($1.2, $1.0) }.map(\.1)
    }
}
