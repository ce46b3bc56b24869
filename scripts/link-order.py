#!/usr/bin/env python3
"""Writes scripts/onthemap.order: the functions the app runs from start to a drawn map, for
lld's --symbol-ordering-file, so that they sit together in the binary instead of spread over
its 30 MB of code (each first touch of a code page maps a whole page-cache folio; resident
memory, Benchmarks.md "Terminal app").

Usage: scripts/link-order.py <bin-dir>   (make bench-tui builds one: .build-tui/release)

Runs a copy of <bin-dir>/onthemap without debug info (valgrind cannot read lld's DWARF 5) under
callgrind on a pseudo-terminal, on the built-in server with the demo class: start, log in, the
map with its pins, pans and zooms, quit; then the same against a separate onthemap-server
(`--server`), when <bin-dir> has one. Then lists every function callgrind saw, and after them
every protocol conformance descriptor (the Swift runtime's first conformance lookup reads all of
them; built with data sections, lld places them together too). Names that the next link does not
know are ignored, so a stale file only orders less.
"""
import fcntl
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

import demo_server

BIN = os.path.abspath(sys.argv[1])
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onthemap.order")
WORK = tempfile.mkdtemp(prefix="onthemap-order-")


def run(arguments, patience=1):
    output = bytearray()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        environment = {
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": WORK, "PATH": "/usr/bin:/bin",
            "XDG_DATA_HOME": f"{WORK}/data", "XDG_CACHE_HOME": f"{WORK}/cache", "XDG_STATE_HOME": f"{WORK}/state",
            "BROWSER": "/bin/true",
        }
        os.execve(arguments[0], arguments, environment)

    def read():
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            output.extend(chunk)

    threading.Thread(target=read, daemon=True).start()

    def wait_for(needle):
        deadline = time.time() + 60 * patience
        while time.time() < deadline:
            if needle in output:
                return
            time.sleep(0.01)
        raise RuntimeError(f"timed out waiting for {needle!r}")

    wait_for(b"Log In")
    os.write(fd, b"demo@onthemap.example\tonthemap\r")
    wait_for(b"locations")
    time.sleep(0.5 * patience)
    for key in "llll++hhhh--++0":
        os.write(fd, key.encode())
        time.sleep(0.05 * patience)
    time.sleep(0.5 * patience)
    os.write(fd, b"\x03")
    os.waitpid(pid, 0)


def main():
    binary = os.path.join(WORK, "onthemap")
    subprocess.run(["objcopy", "--strip-debug", f"{BIN}/onthemap", binary], check=True)
    run([binary])  # seeds the demo database
    valgrind = shutil.which("valgrind") or "/usr/bin/valgrind"
    names, seen = [], set()

    def record(arguments):
        profile = os.path.join(WORK, "callgrind.out")
        run([valgrind, "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", binary] + arguments, patience=5)
        with open(profile, errors="replace") as handle:
            for line in handle:
                match = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
                if not match:
                    continue
                name = re.sub(r"'\d+$", "", match.group(1).strip())
                if name.startswith("0x") or name in seen:
                    continue
                seen.add(name)
                names.append(name)

    record([])  # the built-in server, the default
    if os.path.exists(f"{BIN}/onthemap-server"):  # and against a separate server (--server)
        server, url = demo_server.start(BIN, WORK)
        try:
            record(["--server", url])
        finally:
            server.terminate()
            server.wait()
    functions = len(names)
    # The runtime's first protocol-conformance lookup reads every conformance descriptor (`Mc`),
    # wherever it lies; with data sections they can be placed together too.
    symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in symbols.splitlines():
        name = line.split()[-1]
        if name.endswith("Mc") and name.startswith("$s") and name not in seen:
            seen.add(name)
            names.append(name)
    with open(OUT, "w") as handle:
        handle.write("\n".join(names) + "\n")
    print(f"{functions} functions and {len(names) - functions} conformance descriptors -> {OUT}")
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
