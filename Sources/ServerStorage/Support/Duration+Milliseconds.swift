extension Duration {
    /// The whole milliseconds of the duration (a fraction is dropped): what PostgreSQL's
    /// `statement_timeout` and the LiveQuery budget's error message state it in.
    package var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
