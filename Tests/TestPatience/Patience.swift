/// How long a test waits for something that should happen before it calls the wait a hang.
///
/// In the parallel pass every suite starts at once and the whole pass takes about four minutes
/// on 2 cores (longer beside two CPU hogs), so a test can be kept waiting for most of that
/// before its own work is scheduled: a guard measured from the test's start must outlast the
/// pass, or a loaded machine fails tests that are right. A test that passes never waits this
/// long; it acts on the event (the N-th answer, a line, a state) the moment it comes. A wait
/// that asserts that something does *not* happen keeps its own short window instead.
public enum Patience {
    /// The hang guard of every "until this happens" wait in the test support.
    public static let forAnEvent: Duration = .seconds(600)
}
