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
        defer { releaseResidentPages() }
        var found: [Completion] = []
        let bytes = Array(key.utf8)
        func score(_ names: [String]) -> Int? { names.compactMap { Self.score(bytes, Array($0.utf8)) }.max() }
        for country in countries {
            if let score = score(country.keys) {
                found.append(Completion(placemark: placemark(for: country), score: score + 2))
            }
        }
        for region in regions {
            if let score = score(region.keys) {
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

    /// How `key` matches one of `names` (both folded): 300 the whole name, 200 its start, 150 a
    /// word's start, 50 its letters in order (keys of 3 letters or more); nil for no match.
    public static func score(_ key: String, names: [String]) -> Int? {
        let key = Array(key.utf8)
        return names.compactMap { score(key, Array($0.utf8)) }.max()
    }

    /// `score(_:names:)` for one name, on the folded bytes (the folded alphabet is letters, digits
    /// and single spaces, so bytes compare as characters do, and a keystroke stays cheap).
    public static func score(_ key: [UInt8], _ name: [UInt8]) -> Int? {
        guard !key.isEmpty, key.count <= name.count else {
            return key.count >= 3 && isSubsequence(key, of: name) ? 50 : nil
        }
        func startsAt(_ offset: Int) -> Bool {
            var index = 0
            while index < key.count {
                if name[offset + index] != key[index] { return false }
                index += 1
            }
            return true
        }
        if startsAt(0) { return key.count == name.count ? 300 : 200 }
        var offset = 1
        while offset + key.count <= name.count {
            if name[offset - 1] == 32, startsAt(offset) { return 150 }
            offset += 1
        }
        return key.count >= 3 && isSubsequence(key, of: name) ? 50 : nil
    }

    /// Whether the bytes of `key` appear in `name` in order (spaces in `key` skipped).
    static func isSubsequence(_ key: [UInt8], of name: [UInt8]) -> Bool {
        var position = 0
        for byte in key where byte != 32 {
            while position < name.count, name[position] != byte { position += 1 }
            if position == name.count { return false }
            position += 1
        }
        return true
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
        for (bytes, exact) in lines {
            // The line is `name<TAB>ref,ref,…`, a ref a city's line number, `~` before an alternate name.
            var position = (bytes.firstIndex(of: 9) ?? bytes.count - 1) + 1
            while position < bytes.count {
                let isPrimary = bytes[position] != UInt8(ascii: "~")
                if !isPrimary { position += 1 }
                var index = 0
                var digits = 0
                while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                    index = index * 10 + Int(bytes[position] - 48)
                    digits += 1
                    position += 1
                }
                position += 1  // the comma
                guard digits > 0 else { continue }
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
