/// Real places on every continent for the demo class: (place string, latitude, longitude).
public enum DemoPlaces {
    /// About 120 places, by continent.
    public static let all: [(String, Double, Double)] = [
        // North America
        ("Mountain View, CA", 37.386052, -122.083851), ("Cupertino, CA", 37.322998, -122.032182),
        ("Las Vegas, NV", 36.169202, -115.140597), ("San Francisco, CA", 37.774929, -122.419416),
        ("Seattle, WA", 47.606209, -122.332071), ("Austin, TX", 30.267153, -97.743061),
        ("New York, NY", 40.712775, -74.005973), ("Boston, MA", 42.360082, -71.058880),
        ("Chicago, IL", 41.878114, -87.629798), ("Denver, CO", 39.739236, -104.990251),
        ("Atlanta, GA", 33.748995, -84.387982), ("Miami, FL", 25.761680, -80.191790),
        ("Toronto, Canada", 43.653226, -79.383184), ("Vancouver, Canada", 49.282729, -123.120738),
        ("Montreal, Canada", 45.501689, -73.567256), ("Mexico City, Mexico", 19.432608, -99.133208),
        ("Guadalajara, Mexico", 20.659699, -103.349609), ("Anchorage, AK", 61.218056, -149.900278),
        ("Honolulu, HI", 21.306944, -157.858333), ("San José, Costa Rica", 9.928069, -84.090725),
        ("Havana, Cuba", 23.113592, -82.366596), ("Portland, OR", 45.515232, -122.678385),
        // South America
        ("São Paulo, Brazil", -23.550520, -46.633309), ("Rio de Janeiro, Brazil", -22.906847, -43.172896),
        ("Buenos Aires, Argentina", -34.603684, -58.381559), ("Santiago, Chile", -33.448890, -70.669265),
        ("Lima, Peru", -12.046374, -77.042793), ("Bogotá, Colombia", 4.710989, -74.072092),
        ("Quito, Ecuador", -0.180653, -78.467834), ("Montevideo, Uruguay", -34.901113, -56.164531),
        ("Caracas, Venezuela", 10.480594, -66.903606),
        // Europe
        ("London, UK", 51.507351, -0.127758), ("Paris, France", 48.856614, 2.352222),
        ("Berlin, Germany", 52.520007, 13.404954), ("München, Germany", 48.135125, 11.581981),
        ("Madrid, Spain", 40.416775, -3.703790), ("Barcelona, Spain", 41.385064, 2.173403),
        ("Rome, Italy", 41.902784, 12.496366), ("Milan, Italy", 45.464204, 9.189982),
        ("Amsterdam, Netherlands", 52.370216, 4.895168), ("Stockholm, Sweden", 59.329323, 18.068581),
        ("Oslo, Norway", 59.913869, 10.752245), ("Helsinki, Finland", 60.169856, 24.938379),
        ("Warsaw, Poland", 52.229676, 21.012229), ("Łódź, Poland", 51.759250, 19.455983),
        ("Prague, Czech Republic", 50.075538, 14.437800), ("Vienna, Austria", 48.208174, 16.373819),
        ("Zürich, Switzerland", 47.376887, 8.541694), ("Dublin, Ireland", 53.349805, -6.260310),
        ("Lisbon, Portugal", 38.722252, -9.139337), ("Athens, Greece", 37.983810, 23.727539),
        ("Kyiv, Ukraine", 50.450100, 30.523400), ("Edinburgh, UK", 55.953252, -3.188267),
        ("Reykjavík, Iceland", 64.146582, -21.942635), ("Istanbul, Turkey", 41.008238, 28.978359),
        // Africa
        ("Lagos, Nigeria", 6.524379, 3.379206), ("Nairobi, Kenya", -1.292066, 36.821946),
        ("Cairo, Egypt", 30.044420, 31.235712), ("Cape Town, South Africa", -33.924869, 18.424055),
        ("Johannesburg, South Africa", -26.204103, 28.047305), ("Accra, Ghana", 5.603717, -0.186964),
        ("Addis Ababa, Ethiopia", 9.005401, 38.763611), ("Casablanca, Morocco", 33.573110, -7.589843),
        ("Kigali, Rwanda", -1.970579, 30.104429), ("Dakar, Senegal", 14.716677, -17.467686),
        ("Tunis, Tunisia", 36.806495, 10.181532),
        // Asia
        ("Tokyo, Japan", 35.689487, 139.691706), ("Osaka, Japan", 34.693738, 135.502165),
        ("Seoul, South Korea", 37.566535, 126.977969), ("Beijing, China", 39.904200, 116.407396),
        ("Shanghai, China", 31.230416, 121.473701), ("Shenzhen, China", 22.543096, 114.057865),
        ("Hong Kong", 22.319304, 114.169361), ("Taipei, Taiwan", 25.032969, 121.565418),
        ("Singapore", 1.352083, 103.819836), ("Bangkok, Thailand", 13.756331, 100.501765),
        ("Hanoi, Vietnam", 21.027764, 105.834160), ("Manila, Philippines", 14.599512, 120.984219),
        ("Jakarta, Indonesia", -6.208763, 106.845599), ("Kuala Lumpur, Malaysia", 3.139003, 101.686855),
        ("Bangalore, India", 12.971599, 77.594563), ("Mumbai, India", 19.075984, 72.877656),
        ("New Delhi, India", 28.613939, 77.209021), ("Hyderabad, India", 17.385044, 78.486671),
        ("Karachi, Pakistan", 24.860735, 67.001137), ("Dhaka, Bangladesh", 23.810332, 90.412518),
        ("Dubai, UAE", 25.204849, 55.270783), ("Riyadh, Saudi Arabia", 24.713552, 46.675296),
        ("Tel Aviv, Israel", 32.085300, 34.781768), ("Tashkent, Uzbekistan", 41.299496, 69.240073),
        ("Ulaanbaatar, Mongolia", 47.886399, 106.905744), ("Kathmandu, Nepal", 27.717245, 85.323960),
        ("Novosibirsk, Russia", 55.008353, 82.935733), ("Moscow, Russia", 55.755826, 37.617300),
        // Oceania
        ("Sydney, Australia", -33.868820, 151.209296), ("Melbourne, Australia", -37.813628, 144.963058),
        ("Perth, Australia", -31.950527, 115.860457), ("Brisbane, Australia", -27.469771, 153.025124),
        ("Auckland, New Zealand", -36.848460, 174.763332), ("Wellington, New Zealand", -41.286460, 174.776236),
        ("Suva, Fiji", -18.124809, 178.450079),
        // Antarctica
        ("McMurdo Station, Antarctica", -77.846323, 166.668235),
    ]
}
