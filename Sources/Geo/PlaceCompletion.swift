/// Completions of a half-typed place name from the offline gazetteer, for the app's "Go to"
/// prompt: countries, regions (every US state) and cities. Names are folded (`NameFolding`: case,
/// accents and punctuation ignored); a country or region matches where the typed letters start
/// its name or one of its words, or failing that appear in order in it ("utd kingdm"); a city
/// where they start one of its names (alternates included: "lisboa" finds Lisbon), and when no
/// city name starts so, where the longest start of them does (a typo late in the word: "lisbn").
/// Cheap enough for every keystroke: a binary search into the sorted name index and a bounded
/// walk from there, no parsing of cities that are not returned.
extension Gazetteer {
    /// A place that completes a typed name, with how well it matched (higher is better).
    public struct Completion: Sendable, Hashable {
        public var placemark: Placemark
        public var score: Int
    }

    /// At most `limit` places completing `text`, best first: exact names before starts, starts
    /// before letters in order, then larger places and cities first.
    public func completions(for text: String, limit: Int = 8) -> [Completion] {
        let key = NameFolding.fold(text)
        guard !key.isEmpty, limit > 0, key.utf8.count <= 200 else { return [] }
        var found: [Completion] = []
        for country in countries {
            if let score = Self.score(key, names: country.keys) {
                found.append(Completion(placemark: placemark(for: country), score: score + 2))
            }
        }
        for region in regions {
            if let score = Self.score(key, names: region.keys) {
                found.append(Completion(placemark: placemark(for: region), score: score + 1))
            }
        }
        found += cityCompletions(key: key, limit: limit)
        // Stable: among equals, countries before regions before cities, cities by population.
        let ranked = found.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }
        var seen = Set<String>()
        var result: [Completion] = []
        for (_, completion) in ranked where seen.insert(completion.placemark.displayName).inserted {
            result.append(completion)
            if result.count == limit { break }
        }
        return result
    }

    /// How `key` matches one of `names` (folded): 300 the whole name, 200 its start, 150 a word's
    /// start, 50 its letters in order (keys of 3 letters or more); nil for no match.
    public static func score(_ key: String, names: [String]) -> Int? {
        var best: Int?
        for name in names {
            let score: Int? =
                name == key
                ? 300
                : name.hasPrefix(key)
                    ? 200
                    : name.contains(" " + key)
                        ? 150 : key.count >= 3 && Self.isSubsequence(key, of: name) ? 50 : nil
            if let score, score > (best ?? 0) { best = score }
        }
        return best
    }

    /// Whether the characters of `key` appear in `name` in order (spaces in `key` skipped).
    static func isSubsequence(_ key: String, of name: String) -> Bool {
        var wanted = key.utf8.filter { $0 != 32 }.makeIterator()
        var next = wanted.next()
        for byte in name.utf8 where byte == next {
            next = wanted.next()
            if next == nil { return true }
        }
        return next == nil
    }

    /// Cities one of whose names starts with `key` (else with its longest start of at least 3
    /// letters that some name starts with), exact names first, then by population.
    private func cityCompletions(key: String, limit: Int) -> [Completion] {
        var prefix = Array(key.utf8)
        var lines = names.lines(startingWith: prefix, atMost: 400)
        while lines.isEmpty, prefix.count > 3 {
            prefix.removeLast()
            lines = names.lines(startingWith: prefix, atMost: 400)
        }
        let typo = prefix.count < key.utf8.count
        // city index → (score, population)
        var best: [Int: (score: Int, population: Int)] = [:]
        for (line, exact) in lines {
            let references = names.field(1, of: line)
            for reference in references.split(separator: UInt8(ascii: ",")) {
                let isPrimary = reference.first != UInt8(ascii: "~")
                guard let index = Int(String(decoding: isPrimary ? reference : reference.dropFirst(), as: UTF8.self))
                else { continue }
                let score = typo ? 40 : (exact ? 300 : 200) - (isPrimary ? 0 : 20)
                if score > (best[index]?.score ?? -1) {
                    best[index] = (score, best[index]?.population ?? cityPopulation(index))
                }
            }
        }
        let top = best.sorted { a, b in
            a.value.score != b.value.score ? a.value.score > b.value.score : a.value.population > b.value.population
        }
        return top.prefix(limit).compactMap { entry in
            city(entry.key).map { Completion(placemark: placemark(for: $0), score: entry.value.score) }
        }
    }

    /// A city's population, read from the last field of its line without parsing the rest.
    private func cityPopulation(_ index: Int) -> Int {
        let line = cities.line(index)
        var value = 0
        var scale = 1
        var position = line.count - 1
        while position >= 0, line[position] >= 48, line[position] <= 57 {
            value += Int(line[position] - 48) * scale
            scale *= 10
            position -= 1
        }
        return value
    }
}

extension TextTable {
    /// Up to `limit` lines (of a table sorted by first field) whose first field starts with
    /// `prefix`, each with whether the field is exactly `prefix`.
    func lines(startingWith prefix: [UInt8], atMost limit: Int) -> [(line: Int, exact: Bool)] {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if firstFieldPrecedes(line(middle), prefix) { low = middle + 1 } else { high = middle }
        }
        var found: [(Int, Bool)] = []
        var index = low
        while index < count, found.count < limit {
            let bytes = line(index)
            guard bytes.count >= prefix.count, bytes.prefix(prefix.count).elementsEqual(prefix) else { break }
            let exact = bytes.count == prefix.count || bytes[prefix.count] == 9
            found.append((index, exact))
            index += 1
        }
        return found
    }

    /// Field `number` (0-based, tab-separated) of line `index`, as bytes.
    func field(_ number: Int, of index: Int) -> ArraySlice<UInt8> {
        let bytes = Array(line(index))
        let parts = bytes.split(separator: 9, maxSplits: number + 1, omittingEmptySubsequences: false)
        return number < parts.count ? parts[number] : []
    }

    /// Whether line `line`'s first field sorts before `key` (bytewise).
    private func firstFieldPrecedes(_ line: UnsafeBufferPointer<UInt8>, _ key: [UInt8]) -> Bool {
        var index = 0
        while true {
            let a: Int = index < line.count && line[index] != 9 ? Int(line[index]) : -1
            let b: Int = index < key.count ? Int(key[index]) : -1
            if a != b { return a < b }
            if a == -1 { return false }
            index += 1
        }
    }
}
