import APIClient
import Foundation
import Observation
import OnTheMapModels

/// The one place the app's `[StudentInformation]` lives: loads it newest first, pages further on
/// demand, keeps the last download in the cache, and falls back to it when offline.
@MainActor
@Observable
public final class LocationsStore {
    public private(set) var locations: [StudentInformation] = []
    /// When the shown data was downloaded.
    public private(set) var updatedAt: Date?
    /// True when the shown data comes from the cache because the server could not be reached.
    public private(set) var isOffline = false
    public private(set) var isLoading = false
    /// The last failure, in words for the user.
    public private(set) var lastError: String?
    /// Whether the server may have more rows after the ones loaded.
    public private(set) var hasMore = false
    /// Rows the server sent that were unusable (no objectId or no valid coordinates).
    public private(set) var skipped = 0

    private let api: any OnTheMapAPI
    private let cache: LocationCache?
    private let pageSize: Int
    private let now: @Sendable () -> Date
    private var rowsFetched = 0

    public init(
        api: any OnTheMapAPI, cache: LocationCache? = nil, pageSize: Int = 100,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.api = api
        self.cache = cache
        self.pageSize = pageSize
        self.now = now
    }

    /// Downloads the first page again. On failure keeps what is shown (or loads the cache) and
    /// marks the data offline. Returns whether the download worked.
    @discardableResult
    public func refresh() async -> Bool {
        isLoading = true
        defer { isLoading = false }
        do {
            // `pageSize` usable rows: unusable ones are skipped and replaced from further rows.
            let page = try await api.usableLocations(count: pageSize, skip: 0, pageSize: pageSize)
            locations = Self.newestFirst(page.list.locations)
            skipped = page.list.skipped
            rowsFetched = page.rowsRead
            hasMore = !page.isExhausted
            updatedAt = now()
            isOffline = false
            lastError = nil
            cache?.save(locations, at: now())
            return true
        } catch {
            lastError = error.userMessage
            if locations.isEmpty, let snapshot = cache?.load() {
                locations = Self.newestFirst(snapshot.locations)
                updatedAt = snapshot.savedAt
            }
            isOffline = true
            return false
        }
    }

    /// Loads the next page (the next `pageSize` usable rows, by skip) and appends the new rows.
    public func loadNextPage() async {
        guard hasMore, !isLoading, !isOffline else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            let page = try await api.usableLocations(count: pageSize, skip: rowsFetched, pageSize: pageSize)
            let known = Set(locations.map(\.objectId))
            locations += page.list.locations.filter { !known.contains($0.objectId) }
            skipped += page.list.skipped
            rowsFetched += page.rowsRead
            hasMore = !page.isExhausted
        } catch {
            lastError = error.userMessage
        }
    }

    /// Merges one live event: a created, entered or updated row replaces its old copy (or is
    /// added) in newest-first order; a deleted or left row goes.
    public func apply(_ op: LiveOp, _ row: StudentInformation) {
        locations.removeAll { $0.objectId == row.objectId }
        if op.keepsRow { locations = Self.newestFirst([row] + locations) }
    }

    /// Merges the live channel's first page (after each (re)subscription): its rows replace
    /// theirs; a shown row as new as the page's oldest but absent from it was deleted meanwhile
    /// and goes; older rows (later pages) stay.
    public func merge(firstPage rows: [StudentInformation]) {
        let fresh = Set(rows.map(\.objectId))
        let oldest = rows.compactMap { $0.updatedAt ?? $0.createdAt }.min()
        let kept = locations.filter { row in
            guard !fresh.contains(row.objectId), rows.count >= pageSize else { return false }
            guard let oldest, let date = row.updatedAt ?? row.createdAt else { return true }
            return date < oldest
        }
        locations = Self.newestFirst(rows + kept)
        updatedAt = now()
        isOffline = false
    }

    /// When the cached copy was saved, if there is one.
    public var cachedAt: Date? { cache?.load()?.savedAt }

    /// Shows the cached copy, marked offline, without asking the server (browsing offline from
    /// the login screen). Returns false when there is no cache.
    @discardableResult
    public func showCache() -> Bool {
        guard let snapshot = cache?.load() else { return false }
        locations = Self.newestFirst(snapshot.locations)
        updatedAt = snapshot.savedAt
        isOffline = true
        hasMore = false
        return true
    }

    /// Takes a row off at once (deleted on the server): every pane reads `locations`, so the map,
    /// the table and the cards lose it without a download; the cache keeps the same rows.
    public func remove(objectId: String) {
        guard locations.contains(where: { $0.objectId == objectId }) else { return }
        locations.removeAll { $0.objectId == objectId }
        // The server's list is one row shorter too: the next page starts one row earlier.
        rowsFetched = max(0, rowsFetched - 1)
        cache?.save(locations, at: updatedAt ?? now())
    }

    /// Changes one row in place (hidden or shown again by a moderator).
    public func update(objectId: String, _ change: (inout StudentInformation) -> Void) {
        guard let index = locations.firstIndex(where: { $0.objectId == objectId }) else { return }
        change(&locations[index])
    }

    /// Forgets everything (logout).
    public func clear() {
        locations = []
        updatedAt = nil
        isOffline = false
        lastError = nil
        hasMore = false
        rowsFetched = 0
    }

    /// "168 locations · updated 2 min ago", or "offline · data from 3 h ago".
    public func statusText() -> String {
        let count = "\(locations.count) location\(locations.count == 1 ? "" : "s")"
        guard let updatedAt else { return isLoading ? "loading…" : count }
        let age = AgeText.text(from: updatedAt, now: now())
        if isOffline { return "\(count) · offline · data from \(age)" }
        return "\(count) · updated \(age)"
    }

    /// Newest first by update (else creation) date; rows without dates last.
    public static func newestFirst(_ rows: [StudentInformation]) -> [StudentInformation] {
        rows.enumerated().sorted { left, right in
            let l = left.element.updatedAt ?? left.element.createdAt ?? .distantPast
            let r = right.element.updatedAt ?? right.element.createdAt ?? .distantPast
            return l == r ? left.offset < right.offset : l > r
        }.map(\.element)
    }
}
