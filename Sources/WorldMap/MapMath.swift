/// The little arithmetic the map needs without importing Foundation (WorldMap imports nothing).
enum MapMath {
    /// The cosine of a latitude in degrees (-90…90), by its Taylor series (error < 1e-6).
    static func cosine(degrees: Double) -> Double {
        let x = min(max(degrees, -90), 90) * .pi / 180
        let x2 = x * x
        var term = 1.0
        var sum = 1.0
        for n in stride(from: 2, through: 16, by: 2) {
            term *= -x2 / Double(n * (n - 1))
            sum += term
        }
        return max(0, sum)
    }

    /// `value` with exactly `digits` decimals (0…6), rounded half away from zero.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<min(max(digits, 0), 6) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var text = String(whole)
        if digits > 0 {
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
        }
        return (value < 0 && scaled > 0 ? "-" : "") + text
    }
}
