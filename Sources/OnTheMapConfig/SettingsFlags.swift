/// What the command line said about the settings; nil where it said nothing.
public struct SettingsFlags: Sendable, Hashable {
    public var server: String?
    public var dialect: String?
    public var geocoder: String?
    public var precision: String?
    public var theme: String?
    public var mouse: Bool?
    public var ascii: Bool?
    public var accessible: Bool?
    public var graphics: String?

    public init(
        server: String? = nil, dialect: String? = nil, geocoder: String? = nil, theme: String? = nil,
        mouse: Bool? = nil, ascii: Bool? = nil, accessible: Bool? = nil, precision: String? = nil,
        graphics: String? = nil
    ) {
        self.graphics = graphics
        self.accessible = accessible
        self.server = server
        self.dialect = dialect
        self.geocoder = geocoder
        self.precision = precision
        self.theme = theme
        self.mouse = mouse
        self.ascii = ascii
    }
}
