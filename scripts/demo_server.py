"""An onthemap-server process with the demo class on a free loopback port, for the scripts that
measure the app against a separate server (bench-tui.py --external), and a bare server for the
others (attack-live.py)."""
import os
import re
import subprocess
import time


def start(bin_dir, work_dir):
    """Seeds `work_dir`/server.sqlite and serves it; returns (process, base URL)."""
    database = os.path.join(work_dir, "server.sqlite")
    subprocess.run([f"{bin_dir}/onthemap-server", "seed", "--demo", "--database", database], check=True, capture_output=True)
    return serve(bin_dir, database, os.path.join(work_dir, "server.log"), timeout=30)


def serve(bin_dir, database, log_path, extra=(), timeout=60):
    """`onthemap-server serve` on a free loopback port with `database` and `extra` flags, its log
    in `log_path`; returns (process, base URL) once it listens."""
    server = subprocess.Popen(
        [f"{bin_dir}/onthemap-server", "serve", "--port", "0", "--database", database, "--log-level", "notice", *extra],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(log_path) as handle:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", handle.read())
        if match:
            return server, match.group(1)
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"onthemap-server did not start: {open(log_path).read()[-400:]}")
