import Foundation
import ServerTestSupport
import Testing

/// `make test` promises the storage suite runs on PostgreSQL too: it sets
/// `ONTHEMAP_TEST_REQUIRE_POSTGRES=1` and starts a cluster. This fails if the cluster is missing,
/// so the PostgreSQL half of the suite can never be skipped silently there.
@Suite struct PostgresConfiguredTests {
    @Test func postgresIsThereWhenRequired() {
        if ProcessInfo.processInfo.environment["ONTHEMAP_TEST_REQUIRE_POSTGRES"] == "1" {
            #expect(TestBackend.available.contains(.postgres), "ONTHEMAP_TEST_POSTGRES_URL is not set")
        }
    }
}
