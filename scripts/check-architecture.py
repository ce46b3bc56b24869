#!/usr/bin/env python3
"""Checks that the diagram in Docs/Architecture.md shows every target of Package.swift with
exactly its dependencies on the package's other targets (products of other packages, in
brackets in the diagram, are not checked), and that the one write path is the only one:
no source file outside the storages (`Sources/ServerStorage`, `Sources/OnTheMapServerPostgres`),
the write path (`Sources/ClassRules`) and the server's wiring (`ServerApplication`,
`MeasuredStorage`) has a `@_spi(WritePath) import`, without which the compiler hides the
storages' writes (`WritableStorage`, `SQLiteStorage`, the openers; WritePathSealTests), so
everything else holds an `any ServerStorage`, which has no write to call; no code outside the
storages, that wiring and `ClassWrites.open` opens a storage (`SQLiteStorage(…)`,
`DatabaseLocation.open`, `openStorage`); and no SQL that writes `student_location`, `account` or
`session` is spelled outside the storages; and that the two named doors to a caller that the
compiler leaves open to every target (`Caller.operatorAtCommandLine()`,
`Caller.withoutSession(openWrites:)`) are asked
only by the operator's commands (Sources/ServerAdmin) and the API's `CallerResolver`. (That no
other target builds a `Caller` or a `WritePermit` the compiler keeps: WritePathSealTests.) And
that nothing starts a process but `ChildProcess` (Sources/Spawn):
no Foundation `Process` or `Pipe` in Sources or Tests, and no `posix_spawn`, `fork` or `exec…`
call outside Sources/CSpawn. And that ServerHTTP does one job: no file under Sources imports it
but its own and the wiring's (Sources/OnTheMapServer); the rest of the server takes what it
shares with the API from the targets below it (ServerConfig, ServerQuery, ServerSessions).

Usage: python3 scripts/check-architecture.py   (exit 1 and a list of differences when they differ)
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_targets():
    # A scratch folder of its own: dump-package then never waits for a build's lock on .build.
    with tempfile.TemporaryDirectory() as scratch:
        dump = json.loads(subprocess.run(["swift", "package", "--scratch-path", scratch, "dump-package"], cwd=ROOT,
                                         check=True, capture_output=True, text=True).stdout)
    names = {target["name"] for target in dump["targets"]}
    graph = {}
    for target in dump["targets"]:
        deps = set()
        for dependency in target["dependencies"]:
            for kind in ("byName", "target"):
                if kind in dependency and dependency[kind][0] in names:
                    deps.add(dependency[kind][0])
        graph[target["name"]] = deps
    return graph


def diagram_targets():
    block = (ROOT / "Docs" / "Architecture.md").read_text().split("```", 2)[1]
    rows = []  # one per target line, its continuation lines joined to it
    for line in block.splitlines():
        if line.startswith("   ") and rows:
            rows[-1] += " " + line.strip()
        elif line.startswith("  "):
            rows.append(line.strip())
    graph = {}
    for row in rows:
        head, arrow, rest = row.partition("►")
        if arrow:
            graph[head.rstrip("─ ")] = parse_list(rest)
        else:  # a row of targets without dependencies
            for name in re.sub(r"\(.*?\)", "", head).split():
                graph[name] = set()
    return graph


def parse_list(text):
    text = re.sub(r"\[.*?\]", "", re.sub(r"\(.*?\)", "", text))
    return {name.strip() for name in text.split(",") if name.strip()}


# Who may see a storage's writes (`@_spi(WritePath) import`): the storages themselves, the write
# path, and the wiring that opens a storage, measures it and hands it to the write path.
WRITERS = ("Sources/ServerStorage/", "Sources/ClassRules/", "Sources/OnTheMapServerPostgres/",
           "Sources/OnTheMapServer/Observability/MeasuredStorage.swift", "Sources/OnTheMapServer/ServerApplication.swift")
# SQL that writes the rule's tables: only the storages (and the change log's triggers) spell it.
SQL_WRITERS = ("Sources/ServerStorage/Storage/", "Sources/OnTheMapServerPostgres/", "Sources/ServerStorage/Changes/ChangeLogSQL.swift")
# Who may open a storage (an opened storage has the writes, whatever it is called): the storages,
# and the wiring and the write path's opener (for the operator's commands), which hand what they
# open to the write path at once.
OPENERS = ("Sources/ServerStorage/", "Sources/OnTheMapServerPostgres/", "Sources/OnTheMapServer/ServerApplication.swift",
           "Sources/ClassRules/Writes/ClassWrites+Open.swift")
OPEN = re.compile(r"\b(SQLiteStorage|PostgresStorage)\s*\(|\.open\(\s*queryTimeout:|\bopenStorage\(")
# An import that sees the storages' writes, whatever else it says (`@testable`, `struct X.Y`), its
# attributes on one line or several.
SPI_IMPORT = re.compile(r"^[ \t]*(@\w+(\s*\([^)]*\))?\s+)*@_spi\s*\(\s*WritePath\s*\)\s+(@\w+\s+)*import\b", re.MULTILINE)
# The doors to a caller the compiler leaves to every target, and the files that may use each.
CALLER_DOORS = {
    re.compile(r"\boperatorAtCommandLine\s*\("): ("Sources/ClassRules/", "Sources/ServerAdmin/"),
    re.compile(r"\bwithoutSession\s*\(\s*openWrites:"): ("Sources/ClassRules/", "Sources/ServerHTTP/Access/CallerResolver.swift"),
}
WRITE_SQL = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(student_location|account|session)\b", re.IGNORECASE)


def write_path_problems(files):
    """`files`: (path relative to the root, text) pairs; the lines that write around the write path."""
    problems = []
    for path, text in files:
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            if WRITE_SQL.search(line) and not path.startswith(SQL_WRITERS):
                problems.append(f"{path}:{number}: SQL that writes a StudentLocation, account or session outside the storages")
            for door, allowed in CALLER_DOORS.items():
                if door.search(line) and not path.startswith(allowed):
                    problems.append(f"{path}:{number}: mints a caller ({door.pattern}) outside {' and '.join(allowed)}")
        if not path.startswith(WRITERS):
            for match in SPI_IMPORT.finditer(text):  # on the whole text: its attributes may break the line
                number = text.count("\n", 0, match.start()) + 1
                problems.append(f"{path}:{number}: imports the storages' writes (@_spi(WritePath)) outside the write path")
        if path.startswith(OPENERS):
            continue
        for match in OPEN.finditer(text):  # on the whole text: a call may break its line
            number = text.count("\n", 0, match.start()) + 1
            if not text.splitlines()[number - 1].lstrip().startswith("//"):
                problems.append(f"{path}:{number}: opens a storage outside the storages and the wiring")
    return problems


def check_write_path():
    # The check itself must be able to fail: the lines that write around the path are caught.
    sample = [("Sources/ServerHTTP/Controllers/X.swift", "@_spi(WritePath) import ServerStorage\nsql = \"DELETE FROM student_location\""),
              ("Sources/ServerHTTP/Controllers/Y.swift", "let s = try await configuration.database.open(\n    queryTimeout: t,"),
              ("Sources/ServerLiveQuery/Z.swift", "let s = try SQLiteStorage(path: p)"),
              ("Sources/ClassRules/Writes/ClassWrites.swift", "@_spi(WritePath) import ServerStorage"),
              ("Sources/ServerAdmin/V.swift", "@preconcurrency @_spi( WritePath ) @testable import struct ServerStorage.SQLiteStorage"),
              ("Sources/OnTheMapServer/EmbeddedServer.swift", "@_spi(WritePath) import OnTheMapServerPostgres"),
              ("Sources/onthemap-server/U.swift", "// @_spi(WritePath) import ServerStorage\nimport ServerStorage"),
              ("Sources/ServerLiveQuery/T.swift", "import Foundation\n@_spi(WritePath)\nimport ServerStorage"),
              ("Sources/ServerLiveQuery/W.swift", "let c = Caller.operatorAtCommandLine()\nlet o = Caller.withoutSession(openWrites: true)"),
              ("Sources/ServerAdmin/ServerDatabase.swift", "try Access.permit(act, by: Caller.operatorAtCommandLine())")]
    assert len(write_path_problems(sample)) == 9, "the write-path check no longer catches what it should"
    files = [(str(path.relative_to(ROOT)), path.read_text()) for path in sorted((ROOT / "Sources").rglob("*.swift"))]
    return verdict(write_path_problems(files), "Writes around the one write path (ClassWrites):",
                   f"Only the write path and the storages write ({len(files)} source files).")


def verdict(problems, failure, success):
    """Prints the problems under `failure` (1), or `success` (0)."""
    if problems:
        print(failure + "\n  " + "\n  ".join(problems))
        return 1
    print(success)
    return 0


# Foundation's Process and Pipe (its start is not safe from several threads at once on Linux), and
# the calls that start a process, outside the one place that does (CSpawn, under ChildProcess).
FOUNDATION_PROCESS = re.compile(r"\b(Foundation\.)?(Process|Pipe)\s*\(|\bProcess\.run\b|:\s*(Process|Pipe)\b")
SPAWN_CALL = re.compile(r"\b(posix_spawnp?|fork|vfork|execv[pe]?|execl[pe]?|system|popen)\s*\(")
SPAWNERS = ("Sources/CSpawn/",)


def process_problems(files):
    """`files`: (path, text) pairs; the lines that start a process other than through ChildProcess."""
    problems = []
    for path, text in files:
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("//", 1)[0]
            if FOUNDATION_PROCESS.search(code):
                problems.append(f"{path}:{number}: Foundation's Process or Pipe (use ChildProcess, or LaunchedProcess in tests)")
            elif SPAWN_CALL.search(code) and not path.startswith(SPAWNERS):
                problems.append(f"{path}:{number}: starts a process outside CSpawn")
    return problems


def check_processes():
    sample = [("Tests/X/A.swift", "let p = Process()"), ("Tests/X/B.swift", "let out = Pipe()"),
              ("Sources/X/C.swift", "let p: Process"), ("Sources/X/D.swift", "posix_spawn(&pid, path, nil, nil, argv, envp)"),
              ("Sources/X/E.swift", "// Process() in a comment"), ("Sources/CSpawn/CSpawn.c", "status = posix_spawn(pid, path,"),
              ("Sources/X/F.swift", "let p = ServerProcess(x)"), ("Sources/X/G.swift", "let p = try ChildProcess(executable: e)")]
    assert len(process_problems(sample)) == 4, "the process check no longer catches what it should"
    files = [(str(path.relative_to(ROOT)), path.read_text())
             for folder in ("Sources", "Tests") for pattern in ("*.swift", "*.c", "*.h")
             for path in sorted((ROOT / folder).rglob(pattern))]
    return verdict(process_problems(files), "Processes started around ChildProcess:",
                   f"Every process starts through ChildProcess ({len(files)} files).")


# ServerHTTP is imported by the wiring alone (tests may import it; they are not under Sources).
HTTP_IMPORTERS = ("Sources/ServerHTTP/", "Sources/OnTheMapServer/")
IMPORTS_HTTP = re.compile(r"^\s*(@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+((struct|class|enum|protocol|typealias|func|var|let)\s+)?ServerHTTP\b")


def http_import_problems(files):
    """`files`: (path, text) pairs; the lines outside the wiring that import ServerHTTP."""
    return [f"{path}:{number}: imports ServerHTTP (only the wiring, Sources/OnTheMapServer, may)"
            for path, text in files if not path.startswith(HTTP_IMPORTERS)
            for number, line in enumerate(text.splitlines(), 1) if IMPORTS_HTTP.match(line)]


def check_http_imports():
    sample = [("Sources/ServerLiveQuery/A.swift", "import ServerHTTP"), ("Sources/ServerAdmin/B.swift", "@testable import ServerHTTP"),
              ("Sources/onthemap/C.swift", "import struct ServerHTTP.APIFailure"),
              ("Sources/OnTheMapServer/D.swift", "import ServerHTTP"), ("Sources/ServerHTTP/E.swift", "import ServerStorage"),
              ("Sources/ServerAdmin/F.swift", "import ServerHTTPish"), ("Sources/ServerAdmin/G.swift", "// import ServerHTTP")]
    assert len(http_import_problems(sample)) == 3, "the ServerHTTP import check no longer catches what it should"
    files = [(str(path.relative_to(ROOT)), path.read_text()) for path in sorted((ROOT / "Sources").rglob("*.swift"))]
    return verdict(http_import_problems(files), "ServerHTTP imported outside the wiring:",
                   f"Only the wiring imports ServerHTTP ({len(files)} source files).")


def main():
    if check_write_path() or check_processes() or check_http_imports():
        return 1
    package, diagram = package_targets(), diagram_targets()
    problems = [f"{name}: not in the diagram" for name in sorted(package.keys() - diagram.keys())]
    problems += [f"{name}: in the diagram, not in Package.swift" for name in sorted(diagram.keys() - package.keys())]
    for name in sorted(package.keys() & diagram.keys()):
        if package[name] != diagram[name]:
            missing, extra = sorted(package[name] - diagram[name]), sorted(diagram[name] - package[name])
            problems.append(f"{name}: arrows missing {missing}, arrows not in Package.swift {extra}")
    if problems:
        print("Docs/Architecture.md's diagram differs from Package.swift:\n  " + "\n  ".join(problems))
        return 1
    print(f"Docs/Architecture.md's diagram matches Package.swift ({len(package)} targets).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
