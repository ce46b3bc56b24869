import ServerStorage
import Testing

/// The `WHERE` a list runs: visibility first, and each `$regex` guarded by it inside a `CASE`,
/// on both databases, with the values bound in the order their placeholders are written.
@Suite struct SQLCompilerTests {
    static func query(_ visibility: RowVisibility) -> ListQuery {
        var query = ListQuery(limit: 10)
        query.predicate = .and([
            .compare(.objectId, .equal, .text("row")), .regex(.mapString, pattern: "^(a+)+$", options: "i"),
        ])
        query.visibility = visibility
        return query
    }

    @Test func aRegexRunsOnlyOnRowsTheCallerMaySee() {
        var sqlite = SQLCompiler(dialect: .sqlite)
        #expect(
            sqlite.whereCondition(Self.query(.publicAndOwn("ada")))
                == "(hidden_at IS NULL OR unique_key = ?) AND ((object_id = ? AND CASE WHEN (hidden_at IS NULL OR "
                + "unique_key = ?) THEN onthemap_regexp(map_string, ?, ?) ELSE 1 = 0 END))")
        #expect(sqlite.binds == [.text("ada"), .text("row"), .text("ada"), .text("^(a+)+$"), .text("i")])

        var postgres = SQLCompiler(dialect: .postgres)
        #expect(
            postgres.whereCondition(Self.query(.public))
                == "hidden_at IS NULL AND ((object_id = $1 AND CASE WHEN hidden_at IS NULL THEN map_string ~ $2 "
                + "ELSE 1 = 0 END))")
        #expect(postgres.binds == [.text("row"), .text("(?i)^(a+)+$")])
    }

    @Test func everyRowMayBeSeenNothingGuards() {
        var compiler = SQLCompiler(dialect: .sqlite)
        #expect(
            compiler.whereCondition(Self.query(.all))
                == "(object_id = ? AND onthemap_regexp(map_string, ?, ?))")
    }
}
