"""An onthemap-server process with the demo class on a free loopback port, for the scripts that
measure the app against a separate server (bench-tui.py --external)."""
import os
import re
import subprocess
import time


def start(bin_dir, work_dir):
    """Seeds `work_dir`/server.sqlite and serves it; returns (process, base URL)."""
    database = os.path.join(work_dir, "server.sqlite")
    subprocess.run([f"{bin_dir}/onthemap-server", "seed", "--demo", "--database", database], check=True, capture_output=True)
    log_path = os.path.join(work_dir, "server.log")
    server = subprocess.Popen(
        [f"{bin_dir}/onthemap-server", "serve", "--port", "0", "--database", database, "--log-level", "notice"],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(log_path) as handle:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", handle.read())
        if match:
            return server, match.group(1)
        time.sleep(0.05)
    server.kill()
    raise RuntimeError("onthemap-server did not start")
