#!/usr/bin/env python3
"""Timings and memory of the terminal app, driven through a pseudo-terminal.

Usage: scripts/bench-tui.py <bin-dir> [--external] [--sections]   (`make bench-tui`: the bin/ of `make install`)

--external runs the app against a separate onthemap-server process (seeded with the demo class,
started here on a free loopback port) instead of its built-in server; the default is the
built-in server. Both print the resident memory by mapping (/proc/<pid>/smaps).

- start -> login screen drawn: from fork to the login form appearing on the pty (embedded
  default, demo database already seeded; median of 7 starts at 120x40);
- log in -> map with the demo class drawn: from the Enter key (trace mark) to the first frame of
  the map pane with the locations loaded (ONTHEMAP_TRACE), at 200x60;
- a pan/zoom key -> frame: render + blit time of the frames after pan and zoom keys, at 200x60;
- resident memory (VmRSS) after that, and its split by mapping (sum of Rss per file; anonymous
  memory, heap and stacks together);
- the same pan/zoom keys and memory with the map as a picture, on a terminal that answers the
  graphics query as kitty does and as foot does (Sixel), at 200x60 cells of 10x20 pixels.

The pty answers the app's graphics query (DA1) as a terminal does: without pictures, unless a
run asks for them.

--sections also prints which sections and symbols of the binary are resident then
(scripts/resident-sections.py, from /proc/<pid>/pagemap).
"""
import fcntl
import os
import pty
import re
import subprocess
import statistics
import struct
import sys
import tempfile
import termios
import threading
import time

import demo_server

# The replies of terminals with and without pictures to the app's graphics query, as the e2e
# suite's pseudo-terminal gives them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "e2e"))
from pty_terminal import ANSWERS  # noqa: E402

BIN = os.path.abspath(sys.argv[1])
EXTERNAL = "--external" in sys.argv[2:]
SECTIONS = "--sections" in sys.argv[2:]
HOME = tempfile.mkdtemp(prefix="onthemap-bench-")
SERVER_URL = None


class App:
    def __init__(self, columns, rows, trace=None, pictures=None):
        self.output = bytearray()
        self.answer = ANSWERS[pictures or "none"]
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, columns * 10, rows * 20))
            environment = {
                "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": HOME, "PATH": "/usr/bin:/bin",
                "XDG_DATA_HOME": f"{HOME}/data", "XDG_CACHE_HOME": f"{HOME}/cache", "XDG_STATE_HOME": f"{HOME}/state",
                "BROWSER": "/bin/true",
            }
            if trace:
                environment["ONTHEMAP_TRACE"] = trace
            arguments = [f"{BIN}/onthemap"] + (["--server", SERVER_URL] if SERVER_URL else [])
            os.execve(f"{BIN}/onthemap", arguments, environment)
        self.pid, self.fd = pid, fd
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk
            if self.answer and b"\x1b[c" in self.output:
                os.write(self.fd, self.answer)
                self.answer = None

    def wait_for(self, needle, timeout=20):
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if needle in self.output:
                return time.perf_counter() - self.started
            time.sleep(0.0005)
        raise RuntimeError(f"timed out waiting for {needle!r}")

    def send(self, text):
        os.write(self.fd, text.encode())

    def rss_mb(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def rss_by_mapping(self):
        """kB of Rss per mapped file ("[anon]" for anonymous, heap and stacks), largest first."""
        sizes = {}
        name = None
        with open(f"/proc/{self.pid}/smaps") as smaps:
            for line in smaps:
                header = re.match(r"^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$", line)
                if header:
                    path = header.group(1).strip()
                    name = os.path.basename(path) if path.startswith("/") else "[anon]"
                elif line.startswith("Rss:"):
                    sizes[name] = sizes.get(name, 0) + int(line.split()[1])
        return sorted(sizes.items(), key=lambda item: -item[1])

    def quit(self):
        self.send("\x03")
        os.waitpid(self.pid, 0)


def pan_and_zoom(app, trace):
    """The frame times (ms) after a fixed series of pan and zoom keys."""
    before = len(frames(trace))
    for key in ["l"] * 8 + ["+"] * 4 + ["h"] * 8 + ["-"] * 4 + ["+"] * 6 + ["0"]:
        app.send(key)
        time.sleep(0.06)
    time.sleep(0.3)
    return [float(line[2]) for line in frames(trace)[before:] if line[1] == "frame"]


def map_frames(trace):
    """The Map pane's frames: (milliseconds, zoom, latitude, longitude); the world view's centre is None."""
    found = []
    for line in frames(trace):
        if len(line) > 6 and line[1] == "frame" and line[4].startswith("map:") and line[5].startswith("zoom="):
            at = line[6].removeprefix("at=")
            latitude, longitude = (None, None) if at == "world" else map(float, at.split(","))
            found.append((float(line[2]), float(line[5].removeprefix("zoom=")), latitude, longitude))
    return found


def next_map_frame(trace, seen, timeout=60):
    """Waits for the Map pane's frame after the first `seen` ones; returns it."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        found = map_frames(trace)
        if len(found) > seen:
            return found[seen]
        time.sleep(0.001)
    raise RuntimeError(f"no map frame after {seen}")


def key_to_frame(app, trace, key, until):
    """Sends `key` and returns the first Map pane frame that satisfies `until` after it."""
    seen = len(map_frames(trace))
    app.send(key)
    while True:
        frame = next_map_frame(trace, seen)
        seen += 1
        if until(frame):
            return frame


CITY_ZOOM = 512
CONTINENT_EAST = -74.0  # New York's longitude: the pan goes from San Francisco across the United States


def city_zoom(app, trace):
    """`:` San Francisco, `+` to city zoom (512×: about 0.3 km a Braille dot, the detailed map's
    finest level), then pans east at that zoom across the continent, each key waited for by its
    frame. Returns the frame times of the jump, of the zoom keys (each reads a level's tiles
    first), of the pans, the pan count, and the resident memory after it all."""
    # The prompt's completions follow each keystroke as it is read, so Enter, read after them,
    # chooses the first.
    app.send(":San Francisco")
    jump = key_to_frame(app, trace, "\r", lambda frame: frame[2] is not None and abs(frame[3] + 122.42) < 3)
    zooms = []
    zoom = jump[1]
    while zoom < CITY_ZOOM:
        frame = key_to_frame(app, trace, "+", lambda frame, before=zoom: frame[1] > before)
        zooms.append(frame[0])
        zoom = frame[1]
    pans = []
    longitude = jump[3]
    while longitude < CONTINENT_EAST:
        frame = key_to_frame(app, trace, "l", lambda frame, before=longitude: frame[3] > before)
        pans.append(frame[0])
        longitude = frame[3]
    return jump[0], zooms, pans, app.rss_mb()


def with_pictures(protocol):
    """Pan/zoom frame times (each frame's picture made and sent) and memory with pictures."""
    trace = os.path.join(HOME, f"{protocol}-trace.txt")
    app = App(200, 60, trace=trace, pictures=protocol)
    log_in(app, trace)
    pan = pan_and_zoom(app, trace)
    rss = app.rss_mb()
    app.quit()
    print(f"with {protocol} pictures: pan/zoom key -> frame (picture made and sent): median "
          f"{statistics.median(pan):.2f} ms, max {max(pan):.2f} ms over {len(pan)} frames; resident memory {rss:.1f} MB")


def frames(trace):
    with open(trace) as handle:
        return [line.split() for line in handle if line.strip()]


def start_server():
    """An onthemap-server process with the demo class on a free port (for --external)."""
    global SERVER_URL
    server, SERVER_URL = demo_server.start(BIN, HOME)
    return server


def drop_from_page_cache(path):
    """Evicts one file's pages from the page cache (posix_fadvise DONTNEED: only that file, and
    only pages no process maps). The kernel maps a whole page-cache folio on a fault, and folio
    sizes depend on how the file got into the cache (written by `make install`: large folios;
    read by faults: the readahead's), so the binary's resident pages differed by up to 4 MB
    between two copies of the same file. Starting from an evicted file, every run reads the
    binary the way a start after boot does."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def log_in(app, trace):
    """Logs in with the demo account; the milliseconds from the login's submission to the first
    frame of the map with its pins, and the number of pins drawn."""
    app.wait_for(b"Log In")
    app.send("demo@onthemap.example\tonthemap\r")
    deadline = time.time() + 20
    while time.time() < deadline:
        lines = frames(trace)
        loaded = [line for line in lines if line[1] == "frame" and line[4].startswith("map:") and line[4] != "map:0"]
        if loaded:
            break
        time.sleep(0.01)
    submitted = next(int(line[0]) for line in lines if line[1] == "login-submitted")
    return int(loaded[0][0]) - submitted, loaded[0][4].split(":")[1]


def main():
    drop_from_page_cache(f"{BIN}/onthemap")
    server = start_server() if EXTERNAL else None
    warm = App(120, 40)  # the first start seeds the demo database
    warm.wait_for(b"Log In")
    warm.quit()
    starts = []
    for _ in range(7):
        app = App(120, 40)
        starts.append(app.wait_for(b"Log In") * 1000)
        app.quit()
    # A first login reads the code and data of the map into the page cache as faults do (the
    # login screen's starts read only theirs), so that the timed login below measures the app,
    # not the disk; its own resident pages still come from folios read the same way every run.
    warm = App(200, 60, trace=os.path.join(HOME, "warm-trace.txt"))
    log_in(warm, os.path.join(HOME, "warm-trace.txt"))
    warm.quit()
    trace = os.path.join(HOME, "trace.txt")
    app = App(200, 60, trace=trace)
    login_ms, pins = log_in(app, trace)
    pan = pan_and_zoom(app, trace)
    rss = app.rss_mb()
    mappings = app.rss_by_mapping()
    sections = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "resident-sections.py"), str(app.pid)],
        capture_output=True, text=True).stdout if SECTIONS else ""
    jump, zooms, pans, city_rss = city_zoom(app, trace)
    city_mappings = app.rss_by_mapping()
    city_sections = subprocess.run(
        [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "resident-sections.py"), str(app.pid)],
        capture_output=True, text=True).stdout if SECTIONS else ""
    app.quit()
    print(f"server: {SERVER_URL or 'built-in (in-process)'}")
    print(f"start -> login screen drawn: median {statistics.median(starts):.1f} ms (min {min(starts):.1f}, max {max(starts):.1f}) at 120x40")
    print(f"log in -> map with {pins} pins drawn: {login_ms} ms at 200x60")
    print(f"pan/zoom key -> frame (render + blit): median {statistics.median(pan):.2f} ms, max {max(pan):.2f} ms over {len(pan)} frames at 200x60")
    print(f"resident memory after login and {pins} pins: {rss:.1f} MB")
    shown = ", ".join(f"{name} {size / 1024:.1f}" for name, size in mappings if size >= 256)
    rest = sum(size for _, size in mappings if size < 256)
    print(f"  by mapping (MB): {shown}, others {rest / 1024:.1f}")
    if sections:
        print(sections, end="")
    print(f"': San Francisco' -> frame: {jump:.2f} ms; zoom keys to {CITY_ZOOM}x -> frame (new tiles each): "
          f"max {max(zooms):.2f} ms over {len(zooms)}; pans east to {CONTINENT_EAST} at {CITY_ZOOM}x: median "
          f"{statistics.median(pans):.2f} ms, max {max(pans):.2f} ms over {len(pans)} frames")
    print(f"resident memory after panning across the continent at city zoom: {city_rss:.1f} MB")
    shown = ", ".join(f"{name} {size / 1024:.1f}" for name, size in city_mappings if size >= 256)
    rest = sum(size for _, size in city_mappings if size < 256)
    print(f"  by mapping (MB): {shown}, others {rest / 1024:.1f}")
    if city_sections:
        print(city_sections, end="")
    for protocol in ["kitty", "sixel"]:
        with_pictures(protocol)
    if server:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
