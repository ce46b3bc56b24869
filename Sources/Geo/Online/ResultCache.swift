/// Answers already given by an online service, keyed by the folded query.
actor ResultCache {
    private var entries: [String: GeocodeResult] = [:]
    private var order: [String] = []
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    func value(for key: String) -> GeocodeResult? {
        entries[key]
    }

    func store(_ result: GeocodeResult, for key: String) {
        if entries.updateValue(result, forKey: key) == nil {
            order.append(key)
            if order.count > capacity {
                entries[order.removeFirst()] = nil
            }
        }
    }
}
