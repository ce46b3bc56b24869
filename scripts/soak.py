#!/usr/bin/env python3
"""A bounded mixed read/write soak of onthemap-server on loopback.

    python3 scripts/soak.py BIN_DIR [--minutes 10] [--workers 8]

Starts `onthemap-server serve` on a free 127.0.0.1 port with a fresh SQLite file and the demo
class, signs up one account per writer, then for the given time runs workers that each loop:
GET the newest 100 (most requests), GET a user's own rows, POST or PUT their own location.
Samples the server's resident memory every 10 s. Prints the counts, errors and the memory
series, and exits 1 on any error (a 5xx, a refused connection, an unexpected status).
Every request goes to 127.0.0.1; the run stops by itself; the server is stopped at the end.
"""
import argparse, http.client, json, os, random, re, socket, subprocess, sys, tempfile, threading, time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin_dir")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    server_bin = os.path.join(args.bin_dir, "onthemap-server")
    work = tempfile.mkdtemp(prefix="onthemap-soak-")
    database = os.path.join(work, "soak.sqlite")
    subprocess.run([server_bin, "seed", "--demo", "--database", database], check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([server_bin, "serve", "--port", "0", "--database", database, "--log-level", "notice",
                               "--login-failures-per-address", "100000",
                               # Each worker writes hundreds of times a minute on purpose: past the
                               # per-account fair share (Docs/Access.md) every write would be a 429.
                               "--max-writes-per-minute", "1000000"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = None
    deadline = time.time() + 30
    while time.time() < deadline and port is None:
        line = server.stdout.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            port = int(match.group(1))
    if port is None:
        server.kill()
        sys.exit("soak: the server did not start")
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()

    counts = {"get": 0, "own": 0, "post": 0, "put": 0}
    errors = []
    lock = threading.Lock()
    stop_at = time.time() + args.minutes * 60

    def request(connection, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        return response.status, data

    def worker(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        email = f"soak{index}@example.com"
        status, data = request(connection, "POST", "/v1/users",
                               {"email": email, "password": "soak password", "first_name": "Soak", "last_name": str(index)})
        if status != 201:
            with lock:
                errors.append(f"sign-up {status}")
            return
        answer = json.loads(data[5:])
        key, session = answer["account"]["key"], answer["session"]["id"]
        auth = {"Authorization": f"Bearer {session}"}
        mine = None
        random.seed(index)
        while time.time() < stop_at:
            roll = random.random()
            try:
                if roll < 0.80:
                    status, data = request(connection, "GET", "/v1/StudentLocation?limit=100&order=-updatedAt")
                    ok, kind = status == 200 and len(json.loads(data)["results"]) == 100, "get"
                elif roll < 0.90:
                    status, data = request(connection, "GET", f"/v1/StudentLocation?uniqueKey={key}")
                    ok, kind = status == 200, "own"
                else:
                    body = {"uniqueKey": key, "firstName": "Soak", "lastName": str(index), "mapString": "Somewhere",
                            "mediaURL": "https://example.com", "latitude": random.uniform(-60, 70),
                            "longitude": random.uniform(-180, 180)}
                    if mine is None:
                        status, data = request(connection, "POST", "/v1/StudentLocation", body, auth)
                        ok, kind = status == 201, "post"
                        if ok:
                            mine = json.loads(data)["objectId"]
                    else:
                        status, data = request(connection, "PUT", f"/v1/StudentLocation/{mine}", body, auth)
                        ok, kind = status == 200, "put"
            except (OSError, http.client.HTTPException, ValueError) as error:
                ok, kind, status = False, "error", repr(error)
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            with lock:
                if ok:
                    counts[kind] += 1
                else:
                    errors.append(f"{kind} {status}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.workers)]
    started = time.time()
    for thread in threads:
        thread.start()
    samples = []
    while any(thread.is_alive() for thread in threads):
        samples.append((round(time.time() - started), rss_kib(server.pid) // 1024))
        time.sleep(10)
    for thread in threads:
        thread.join()
    elapsed = time.time() - started
    samples.append((round(elapsed), rss_kib(server.pid) // 1024))
    server.terminate()
    server.wait(timeout=30)

    total = sum(counts.values())
    print(f"soak: {args.minutes:g} min, {args.workers} workers, {total} requests ({total / elapsed:.0f}/s): "
          + ", ".join(f"{kind} {count}" for kind, count in counts.items()))
    print("soak: server RSS MB over time: " + " ".join(f"{t}s:{mb}" for t, mb in samples))
    print(f"soak: {len(errors)} errors" + (f", first: {errors[:5]}" if errors else ""))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
