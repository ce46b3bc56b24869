#!/usr/bin/env python3
"""An attacker against LiveQuery on two server instances, and what the rest of the class sees.

    python3 scripts/attack-live.py BIN_DIR [--postgres URL] [--seconds 20] [--no-attack]

Two `onthemap-server serve` instances (A and B) share one database: a SQLite file here, or the
PostgreSQL database at URL (`scripts/with-postgres.sh` gives one as $ONTHEMAP_TEST_POSTGRES_URL).
Accounts: a classmate, a moderator and an attacker (all students but the moderator).

- The attacker, from its own address (127.0.0.2), keeps 4 sockets × 8 subscriptions on A of the
  most expensive `$regex` patterns the server accepts (each pattern tried first; the refused ones
  are listed), and keeps updating its own row with a 1,000-character `mapString` that those
  patterns backtrack on. Whenever the server closes its sockets, it opens them again.
- Meanwhile, watchers from 127.0.0.1 (two sockets on A, two on B, anonymous, every row) wait for
  events; the classmate posts a row through B and then A, and the moderator hides each through
  the other instance.
- Printed: for each post, the time from its 201 to each watcher's `create`, and for each hide,
  from its 200 to each watcher's `leave` (goal: within 1 s); how the server answered the
  attacker (errors, closes); the resident memory of both instances at the end (goal: < 150 MB).
--no-attack runs the same posts and hides without the attacker: the control. Exit status 1 when
a goal is missed.
"""
import argparse
import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import demo_server  # noqa: E402

spec = importlib.util.spec_from_file_location("bench_live", os.path.join(HERE, "bench-live.py"))
bench_live = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_live)
frame, next_frame, text_of, rss_mb, upgrade = (bench_live.frame, bench_live.next_frame, bench_live.text_of,
                                               bench_live.rss_mb, bench_live.upgrade)

PASSWORD = "attack-live-password-1"
# Candidates, worst first: repeated adjacent quantifiers (polynomial backtracking on "aaa…!"),
# alternations and classes the cost check may let through. The server refuses what it judges
# too expensive (RegexCost); the script keeps what it accepts.
PATTERNS = [
    "^a*a*a*a*$", "^(a|aa)*$", "^(a+)+$", "^[a-z]*[a-z]*[a-z]*[a-z]*!$", "a*a*a*a*a*b", "^(a|a)*$",
    "(?i)^a*a*a*a*$", "^.*.*.*.*x$", "^(?:a*)*$", "^a{0,100}a{0,100}a{0,100}$", "^(\\w*)*$", "^a*?a*?a*?a*?$",
]


def server(bin_dir, database, log_path, extra):
    """An instance (demo_server.serve) and its port."""
    process, url = demo_server.serve(bin_dir, database, log_path, extra)
    return process, int(url.rsplit(":", 1)[1])


def add_user(bin_dir, database, email, role=None):
    subprocess.run(
        [f"{bin_dir}/onthemap-server", "user", "add", "--email", email, "--password-stdin", "--first-name", "Test",
         "--last-name", email.split("@")[0], "--database", database] + (["--role", role] if role else []),
        input=PASSWORD.encode(), check=True, capture_output=True)


async def request(port, method, path, body=None, session=None, local="127.0.0.1"):
    """(status, parsed JSON body) of one HTTP/1.1 exchange."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
    head += "Content-Type: application/json\r\n" if body is not None else ""
    head += f"Authorization: Bearer {session}\r\n" if session else ""
    writer.write(head.encode() + b"\r\n" + data)
    answer = await reader.read()
    writer.close()
    status = int(answer.split(b" ", 2)[1])
    text = answer.split(b"\r\n\r\n", 1)[1].removeprefix(b")]}'\n")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, None


async def log_in(port, email):
    status, body = await request(port, "POST", "/v1/session", {"udacity": {"username": email, "password": PASSWORD}})
    if status != 200:
        raise RuntimeError(f"login of {email}: {status} {body}")
    return body["session"]["id"], body["account"]["key"]


class Socket:
    """A LiveQuery socket; `messages` collects (arrival time, message)."""

    def __init__(self, reader, writer):
        self.reader, self.writer, self.pending, self.messages, self.closed = reader, writer, b"", [], None

    @classmethod
    async def open(cls, port, local="127.0.0.1"):
        reader, writer = await upgrade(port, local)
        sock = cls(reader, writer)
        sock.task = asyncio.create_task(sock.read())
        sock.send({"op": "connect", "applicationId": "attack"})
        return sock

    def send(self, message):
        self.writer.write(frame(json.dumps(message).encode()))

    async def read(self):
        try:
            while True:
                data = await self.reader.read(1 << 16)
                if not data:
                    break
                now = time.perf_counter()
                self.pending += data
                while (parsed := next_frame(self.pending)) is not None:
                    opcode, payload, self.pending = parsed
                    text = text_of(opcode, payload, self.writer.write)
                    if text is not None:
                        self.messages.append((now, json.loads(text)))
        except (ConnectionError, OSError):
            pass
        self.closed = time.perf_counter()

    async def wait(self, predicate, timeout=10):
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for stamp, message in self.messages:
                if predicate(message):
                    return stamp, message
            if self.closed:
                return None, None
            await asyncio.sleep(0.002)
        return None, None


async def accepted_patterns(port):
    """The candidate patterns the server subscribes (one socket from the attacker's address)."""
    sock = await Socket.open(port, local="127.0.0.2")
    await sock.wait(lambda m: m.get("op") == "connected")
    accepted, refused = [], []
    for index, pattern in enumerate(PATTERNS, start=1):
        sock.send({"op": "subscribe", "requestId": index,
                   "query": {"className": "StudentLocation", "where": {"mapString": {"$regex": pattern}}}})
        _, answer = await sock.wait(lambda m, i=index: m.get("requestId") == i or m.get("op") == "error")
        (accepted if answer and answer.get("op") == "subscribed" else refused).append(
            (pattern, (answer or {}).get("error", "closed")))
        if sock.closed:
            sock = await Socket.open(port, local="127.0.0.2")
            await sock.wait(lambda m: m.get("op") == "connected")
    sock.writer.close()
    sock.task.cancel()
    return [p for p, _ in accepted], refused


async def attacker(port, login, patterns, stop, report):
    """4 sockets × 8 subscriptions of the accepted patterns, reopened when closed, and its own row
    updated with a hostile mapString as fast as the server answers."""
    chosen = (patterns * 8)[:8] if patterns else []
    hostile = "a" * 1000 + "!"
    session, key = login
    status, body = await request(
        port, "POST", "/v1/StudentLocation", {"uniqueKey": key, "firstName": "A", "lastName": "Ttacker",
                                             "mapString": hostile, "mediaURL": "https://example.com",
                                             "latitude": 1, "longitude": 1}, session, local="127.0.0.2")
    row = (body or {}).get("objectId")
    report["own row"] = f"{status}" + ("" if status == 201 else f" {body}")
    sockets = []

    async def subscribe_all():
        sock = await Socket.open(port, local="127.0.0.2")
        for index, pattern in enumerate(chosen, start=1):
            sock.send({"op": "subscribe", "requestId": index,
                       "query": {"className": "StudentLocation", "where": {"mapString": {"$regex": pattern}}}})
        return sock

    def note_errors(sock):
        for _, message in sock.messages:
            if message.get("op") == "error":
                report.setdefault("errors", {})[str(message.get("code"))] = message.get("error", "")[:110]

    while not stop.is_set():
        for sock in sockets:
            if sock.closed:
                note_errors(sock)
        sockets = [s for s in sockets if not s.closed]
        while len(sockets) < 4:
            try:
                sockets.append(await subscribe_all())
                report["sockets opened"] = report.get("sockets opened", 0) + 1
            except (OSError, RuntimeError) as error:
                report["refused opens"] = report.get("refused opens", 0) + 1
                report["last refusal"] = str(error)[:120]
                await asyncio.sleep(0.05)
                break
        if row:
            status, _ = await request(port, "PUT", f"/v1/StudentLocation/{row}",
                                      {"mapString": hostile + str(time.time())[-3:]}, session, local="127.0.0.2")
            report.setdefault("updates", {}).setdefault(status, 0)
            report["updates"][status] += 1
        else:
            await asyncio.sleep(0.05)
    for sock in sockets:
        note_errors(sock)
        sock.writer.close()
        sock.task.cancel()


async def run(args, ports, sessions):
    a, b = ports
    patterns, refused = await accepted_patterns(a)
    print(f"patterns accepted: {patterns}")
    print(f"patterns refused: {[p for p, _ in refused]}")
    watchers = [await Socket.open(port) for port in (a, a, b, b)]
    for sock in watchers:
        await sock.wait(lambda m: m.get("op") == "connected")
        sock.send({"op": "subscribe", "requestId": 1, "query": {"className": "StudentLocation", "where": {}}})
        await sock.wait(lambda m: m.get("op") == "subscribed")
    stop = asyncio.Event()
    report = {}
    attack = asyncio.create_task(
        asyncio.sleep(0) if args.no_attack else attacker(a, sessions["attacker"], patterns, stop, report))
    await asyncio.sleep(2)  # the attacker's sockets up and its row being rewritten
    creates, leaves, missing = [], [], 0

    async def arrivals(op, object_id, answered):
        """Each watcher's delay from `answered` to its `op` event for the row (None: never came)."""
        delays = []
        for sock in watchers:
            stamp, _ = await sock.wait(
                lambda m: m.get("op") == op and m.get("object", {}).get("objectId") == object_id)
            delays.append(max(0.0, stamp - answered) if stamp else None)
        return delays

    rounds = max(1, args.seconds // 4)
    for index in range(rounds):
        post_port, hide_port = (b, a) if index % 2 == 0 else (a, b)
        status, body = await request(post_port, "POST", "/v1/StudentLocation", {
            "uniqueKey": sessions["classmate"][1], "firstName": "Class", "lastName": f"Mate {index}",
            "mapString": "Lisbon", "mediaURL": "https://example.com", "latitude": 38.7, "longitude": -9.1},
            sessions["classmate"][0])
        answered = time.perf_counter()
        object_id = (body or {}).get("objectId")
        if status != 201 or not object_id:
            print(f"post {index}: {status} {body}")
            missing += 1
            continue
        creates += await arrivals("create", object_id, answered)
        status, body = await request(hide_port, "POST", f"/v1/StudentLocation/{object_id}/hide",
                                     {"reason": "attack-live"}, sessions["moderator"][0])
        answered = time.perf_counter()
        if status != 200:
            print(f"hide {index}: {status} {body}")
            missing += 1
            continue
        leaves += await arrivals("leave", object_id, answered)
        await asyncio.sleep(1)
    stop.set()
    await attack
    for sock in watchers:
        sock.writer.close()
        sock.task.cancel()
    return creates, leaves, missing, report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("--postgres")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--no-attack", action="store_true")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="attack-live-")
    database = args.postgres or os.path.join(work, "class.sqlite")
    subprocess.run([f"{args.bin_dir}/onthemap-server", "seed", "--demo", "--database", database],
                   check=True, capture_output=True)
    for email, role in (("classmate@example.com", None), ("moderator@example.com", "moderator"),
                        ("attacker@example.com", None)):
        add_user(args.bin_dir, database, email, role)
    instances = [server(args.bin_dir, database, os.path.join(work, f"{name}.log"), []) for name in "AB"]
    try:
        ports = [port for _, port in instances]

        async def sessions_and_run():
            sessions = {
                "classmate": await log_in(ports[1], "classmate@example.com"),
                "moderator": await log_in(ports[0], "moderator@example.com"),
                "attacker": await log_in(ports[0], "attacker@example.com"),
            }
            return await run(args, ports, sessions)

        creates, leaves, missing, report = asyncio.run(sessions_and_run())
        memory = [rss_mb(process.pid) for process, _ in instances]
    finally:
        for process, _ in instances:
            process.terminate()
            process.wait()
    store = "PostgreSQL" if args.postgres else "SQLite"

    def summary(values):
        got = [v for v in values if v is not None]
        worst = f"{max(got) * 1000:.0f} ms" if got else "-"
        return f"{len(got)} of {len(values)} arrived, the slowest after {worst}"

    print(f"{store}, two instances; the attacker: {json.dumps(report)}")
    print(f"a classmate's create at 4 watchers (2 per instance): {summary(creates)}")
    print(f"a moderator's hide as leave at the same watchers: {summary(leaves)}")
    print(f"resident memory: A {memory[0]:.1f} MB, B {memory[1]:.1f} MB")
    late = [v for v in creates + leaves if v is None or v > 1.0]
    ok = not late and not missing and max(memory) < 150
    print("goals (every create and leave within 1 s, both instances < 150 MB):", "met" if ok else "MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
