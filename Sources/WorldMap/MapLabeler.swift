/// Chooses the names a view shows and where: the selected pin's name beside it, countries
/// largest first (by area) at their label points, cities largest first (by population) once a
/// column spans less than 120 km. Close in (under 30 km a column) cities go before countries.
struct MapLabeler {
    let viewport: Viewport
    let cropSouth: Bool

    /// Kilometres a column spans at the view's centre.
    var kilometresPerColumn: Double {
        let cosine = max(0.2, MapMath.cosine(degrees: viewport.centerLatitude))
        return viewport.degreesPerColumn * 111.32 * cosine
    }

    func label(_ grid: inout MapGrid, pins: [MapPin], placement: PinPlacement, ascii: Bool) {
        var placer = LabelPlacer(width: grid.width, height: grid.height, pinCounts: placement.counts, ascii: ascii)
        let named = labelSelectedPin(&placer, pins: pins, placement: placement, grid: &grid)
        if kilometresPerColumn < 30 {
            labelCities(&placer, grid: &grid, except: named)
            labelCountries(&placer, grid: &grid, except: named)
        } else {
            labelCountries(&placer, grid: &grid, except: named)
            labelCities(&placer, grid: &grid, except: named)
        }
    }

    /// Writes the selected pin's name beside it (right, else left); returns the name, which
    /// no city or country label then repeats.
    private func labelSelectedPin(
        _ placer: inout LabelPlacer, pins: [MapPin], placement: PinPlacement, grid: inout MapGrid
    ) -> String? {
        for (index, pin) in pins.enumerated() where pin.style == .selected && placement.cellOfPin[index] >= 0 {
            guard let name = pin.label, !name.isEmpty else { continue }
            let cell = Int(placement.cellOfPin[index])
            let (column, row) = (cell % grid.width, cell / grid.width)
            let right = placer.cells(" " + name)
            if placer.place(right, kind: .pin, candidates: [(column + 1, row)], gapLeft: false, into: &grid) {
                return name
            }
            let left = placer.cells(name + " ")
            _ = placer.place(left, kind: .pin, candidates: [(column - left.count, row)], gapRight: false, into: &grid)
            return name
        }
        return nil
    }

    private func labelCities(_ placer: inout LabelPlacer, grid: inout MapGrid, except named: String?) {
        let kilometres = kilometresPerColumn
        guard kilometres < 120 else { return }
        let minimum = max(50_000, Int(250 * kilometres * kilometres))
        var budget = max(4, grid.width * grid.height / 200)
        let cities = PlaceLabels.cities
        for index in cities.indices {
            if cities.rank(index) < minimum { break }
            let (latitude, longitude) = (cities.latitude(index), cities.longitude(index))
            guard !(cropSouth && latitude < Viewport.worldSouth),
                let cell = viewport.cell(latitude: latitude, longitude: longitude)
            else { continue }
            // Only a city in view has its names read from the text.
            let city = cities[index]
            guard let name = placer.ascii ? city.asciiName : city.name, city.name != named else { continue }
            let characters = placer.cells(name)
            let n = characters.count
            let (c, r) = (cell.column, cell.row)
            let candidates = [(c, r), (c - n + 1, r), (c - n / 2, r - 1), (c - n / 2, r + 1)]
            if placer.place(characters, kind: .city, candidates: candidates, into: &grid) {
                budget -= 1
                if budget == 0 { return }
            }
        }
    }

    private func labelCountries(_ placer: inout LabelPlacer, grid: inout MapGrid, except named: String?) {
        let kilometres = kilometresPerColumn
        for index in PlaceLabels.countriesBySize {
            let country = PlaceLabels.countries[index]
            guard Double(country.rank).squareRoot() / kilometres >= 3 else { break }
            guard !(cropSouth && country.latitude < Viewport.worldSouth),
                let name = placer.ascii ? country.asciiName : country.name, country.name != named
            else { continue }
            let characters = placer.cells(name)
            guard characters.count <= grid.width else { continue }
            let candidates = countryCandidates(index, country, width: characters.count)
            _ = placer.place(characters, kind: .country, candidates: candidates, into: &grid)
        }
    }

    /// Where a country's name may go: centred on its label point when that is on screen, else
    /// at the point of the view nearest to it that lies in the country (so neighbours at the
    /// edges of a close view are named too). Always kept inside the view.
    private func countryCandidates(_ index: Int, _ country: PlaceLabel, width n: Int) -> [(column: Int, row: Int)] {
        guard let p = viewport.position(latitude: country.latitude, longitude: country.longitude) else { return [] }
        let (width, height) = (Double(viewport.width), Double(viewport.height))
        var anchor: (column: Double, row: Double)?
        if p.column >= 0, p.column < width, p.row >= 0, p.row < height {
            anchor = p
        } else {
            let half = Double(n) / 2
            let clamped = (column: min(max(p.column, half + 1), width - half - 1), row: min(max(p.row, 1), height - 2))
            for step in 0..<4 {
                let t = Double(step) / 4
                let column = clamped.column + (width / 2 - clamped.column) * t
                let row = clamped.row + (height / 2 - clamped.row) * t
                let point = viewport.coordinate(column: column, row: row)
                if PlaceLabels.country(index, contains: point.latitude, point.longitude) {
                    anchor = (column, row)
                    break
                }
            }
        }
        guard let anchor else { return [] }
        let start = min(max(0, Int(anchor.column) - n / 2), viewport.width - n)
        let row = Int(anchor.row)
        return [(start, row), (start, row - 1), (start, row + 1), (start, row - 2), (start, row + 2)]
    }
}
