"""End-to-end suite for the onthemap terminal app (Python 3 standard library only).

Starts onthemap-server on a free loopback port with the demo class, runs onthemap in a private
tmux server, types like a user, and reads the screen with capture-pane, polling for text.
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from pty_terminal import PtyApp, colour_counts, kitty_images, png_pixels, sixel_images

BIN = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="onthemap-e2e-")
SOCKET = f"otm-e2e-{os.getpid()}"
RECORDER_LOG = os.path.join(WORK, "browser.log")
DATABASE = os.path.join(WORK, "server.sqlite")
EMAIL, PASSWORD = "demo@onthemap.example", "onthemap"
results = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *args], capture_output=True, text=True, check=check)


def capture(session, escapes=False):
    args = ["capture-pane", "-p", "-t", session] + (["-e"] if escapes else [])
    return tmux(*args).stdout


def wait_for(session, predicate, timeout=30.0, what=""):
    """Polls the pane until predicate(text) holds; returns the text or raises with the last screen."""
    deadline = time.time() + timeout
    text = ""
    while time.time() < deadline:
        text = capture(session)
        if predicate(text):
            return text
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what or predicate}; screen was:\n{text}")


def wait_text(session, needle, timeout=30.0):
    return wait_for(session, lambda text: needle in text, timeout, repr(needle))


def wait_for_file(path, predicate, what, timeout=30.0):
    """Polls a file until one of its lines satisfies predicate; returns that line."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path):
            with open(path) as handle:
                for line in handle:
                    if predicate(line):
                        return line.strip()
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} in {path}")


def keys(session, *names):
    tmux("send-keys", "-t", session, *names)


def typed(session, text):
    tmux("send-keys", "-t", session, "-l", text)


def start_app(session, server_url, width=120, height=40, extra=None, trace=None):
    environment = {
        "TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": WORK, "PATH": os.environ.get("PATH", ""),
        "XDG_DATA_HOME": f"{WORK}/data", "XDG_CACHE_HOME": f"{WORK}/cache", "XDG_STATE_HOME": f"{WORK}/state",
        "XDG_CONFIG_HOME": f"{WORK}/config", "BROWSER": f"{WORK}/browser.sh", **(extra or {}),
    }
    if trace:
        environment["ONTHEMAP_TRACE"] = trace
    exports = " ".join(f"{key}='{value}'" for key, value in environment.items())
    command = f"env -i {exports} '{BIN}/onthemap' --server '{server_url}'; echo \"[exit $?]\"; sleep 600"
    tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), command)


def log_in(session, email=EMAIL, password=PASSWORD):
    wait_text(session, "Log In")
    typed(session, email)
    keys(session, "Tab")
    typed(session, password)
    keys(session, "Enter")


def data_rows(screen):
    """The table's data lines (below the header, above the filter line and footer)."""
    lines = screen.split("\n")
    header = next(index for index, line in enumerate(lines) if line.strip().startswith("Name") and "Updated" in line)
    return [line for line in lines[header + 1:-3] if line.strip()]


def api(path, method="GET", body=None):
    request = urllib.request.Request(SERVER + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    return json.loads(text[5:] if text.startswith(")]}'") else text)  # the session API's prefix


def usable(row):
    """What the client keeps: an objectId and finite coordinates in range."""
    latitude, longitude = row.get("latitude"), row.get("longitude")
    return (bool(row.get("objectId")) and isinstance(latitude, (int, float)) and isinstance(longitude, (int, float))
            and -90 <= latitude <= 90 and -180 <= longitude <= 180)


def newest(limit=5):
    rows = api(f"/v1/StudentLocation?limit={limit + 20}&order=-updatedAt")["results"]
    return [row for row in rows if usable(row)][:limit]


def opened_links():
    if not os.path.exists(RECORDER_LOG):
        return []
    with open(RECORDER_LOG) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def normalized(link):
    return link if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", link) else "https://" + link


def test(name):
    def register(function):
        results.append((name, function))
        return function
    return register


# MARK: - Tests (in order; they share one server)

@test("wrong password -> credentials alert")
def wrong_password():
    start_app("wrong", SERVER)
    log_in("wrong", password="not-the-password")
    wait_text("wrong", "Wrong email or password.")
    keys("wrong", "Enter")
    wait_for("wrong", lambda text: "Wrong email" not in text, what="alert dismissed")


@test("a terminal's late answers (over ssh, a slow terminal) -> dropped, never typed")
def late_terminal_answers():
    start_app("late", SERVER)
    wait_text("late", "Log In")
    # What the graphics query's answers look like when they come after the app stopped waiting:
    # Kitty's, the cell size, OSC 11's colour (ended by ST, then by BEL), XTSMGRAPHICS, DA1.
    typed("late", "\x1b_Gi=31;OK\x1b\\\x1b[6;16;8t\x1b]11;rgb:ffff/ffff/ffff\x1b\\"
          "\x1b]11;rgb:0000/0000/0000\x07\x1b[?2;0;1000;1000S\x1b[?62;4;22c")
    log_in("late")
    screen = wait_for("late", lambda text: re.search(r"\d+ (?:of \d+ )?pins", text) is not None
                      or "[exit" in text or "Wrong" in text, what="the map")
    assert "[exit" not in screen and "Wrong" not in screen, screen
    keys("late", "q")
    wait_text("late", "[exit 0]")
    tmux("kill-session", "-t", "late")


@test("login -> the map shows pins")
def login_map():
    start_app("main", SERVER)
    log_in("main")
    def pins_shown(text):
        match = re.search(r"(\d+) (?:of \d+ )?pins", text)
        return "updated" in text and match is not None and int(match.group(1)) >= 20
    screen = wait_for("main", pins_shown, what="20 or more pins")
    assert "updated" in screen and SERVER.split("//")[1] in screen, screen


@test("go to: `:` Lisbon Enter centres the map on Lisbon at city level")
def go_to_lisbon():
    session = "goto"
    start_app(session, SERVER)
    log_in(session)
    wait_text(session, "pins here")
    keys(session, ":")
    wait_text(session, "Go to: ")
    typed(session, "Lisbon")
    wait_text(session, "Lisbon, Portugal")
    keys(session, "Enter")
    screen = wait_text(session, "Went to Lisbon, Portugal")
    assert "Go to: " not in screen, screen
    legend = re.search(r"(\d+\.\d+)°N (\d+\.\d+)°W · zoom (\d+)×", screen)
    assert legend, screen
    latitude, longitude, zoom = float(legend.group(1)), -float(legend.group(2)), int(legend.group(3))
    assert abs(latitude - 38.72) < 0.3 and abs(longitude + 9.13) < 0.3, legend.group(0)
    assert zoom >= 8, f"city level, not a country's: {legend.group(0)}"
    map_lines = screen.split("\n")[3:-3]
    assert any("Lisbon" in line and "Went to" not in line for line in map_lines), "Lisbon named on the map:\n" + screen
    # Esc cancels: the map stays where it is.
    keys(session, ":")
    wait_text(session, "Go to: ")
    typed(session, "Tokyo")
    wait_text(session, "Tokyo, Japan")
    keys(session, "Escape")
    screen = wait_for(session, lambda text: "Go to: " not in text, what="the prompt closed")
    assert legend.group(0) in screen, screen
    tmux("kill-session", "-t", session, check=False)


@test("map: n selects a pin, Enter shows its annotation, o opens its link")
def pin_annotation():
    before = len(opened_links())
    for _ in range(20):
        keys("main", "n")
        keys("main", "Enter")
        screen = wait_text("main", "Enter/o open link · Esc close")
        box = [line for line in screen.split("\n") if "│" in line]
        if any("http" in line for line in box):
            break
        keys("main", "Escape")
    else:
        raise AssertionError("no pin with an http link in 20 steps")
    keys("main", "o")
    deadline = time.time() + 5
    while time.time() < deadline and len(opened_links()) == before:
        time.sleep(0.1)
    opened = opened_links()[before:]
    assert len(opened) == 1, opened
    url = opened[0][0]
    row = next(row for row in newest(100) if normalized(row.get("mediaURL", "")) == url)
    assert url[:30] in screen and row["firstName"] in screen, (url, row, screen)
    keys("main", "Escape")
    wait_for("main", lambda text: "Enter/o open link" not in text, what="annotation closed")


@test("Tab -> the table, newest first")
def table_newest_first():
    keys("main", "Tab")
    screen = wait_text("main", "Updated")
    rows = data_rows(screen)
    expected = [f"{row.get('firstName', '')} {row.get('lastName', '')}".strip() for row in newest(3)]
    for line, name in zip(rows, expected):
        assert line[2:].startswith(name[:20]), f"expected {name!r} in {line!r}"


@test("Enter on a row -> the opener receives that row's URL")
def enter_opens_link():
    rows = newest(40)
    index = next(i for i, row in enumerate(rows) if row.get("mediaURL", "").lower().startswith("http"))
    before = len(opened_links())
    keys("main", "g")
    for _ in range(index):
        keys("main", "j")
    keys("main", "Enter")
    wait_text("main", "Opening")
    deadline = time.time() + 5
    while time.time() < deadline and len(opened_links()) == before:
        time.sleep(0.1)
    assert opened_links()[before:] == [[rows[index]["mediaURL"]]], (opened_links()[before:], rows[index]["mediaURL"])


@test("y -> the selected link in tmux's buffer (OSC 52; tmux set-clipboard on)")
def copy_link():
    tmux("set-option", "-g", "set-clipboard", "on")
    rows = newest(40)
    index = next(i for i, row in enumerate(rows) if re.match(r"^https?://[A-Za-z0-9./_-]+$", row.get("mediaURL", "")))
    keys("main", "g")
    for _ in range(index):
        keys("main", "j")
    keys("main", "y")
    wait_text("main", "Copied")
    deadline = time.time() + 5
    buffer = ""
    while time.time() < deadline and buffer != rows[index]["mediaURL"]:
        buffer = tmux("show-buffer", check=False).stdout
        time.sleep(0.1)
    assert buffer == rows[index]["mediaURL"], (buffer, rows[index]["mediaURL"])
    assert "\x1b]52" not in capture("main", escapes=True), "the OSC 52 sequence leaked into the pane"


@test("s cycles the sort: name, distance, country, newest; the header marks it")
def sort_cycle():
    keys("main", "s")
    screen = wait_text("main", "Name ▼")
    names = [line[2:26].strip().lower() for line in data_rows(screen)[:5]]
    assert names == sorted(names), names
    keys("main", "s")
    wait_text("main", "km ▼")
    keys("main", "s")
    wait_text("main", "Country ▼")
    keys("main", "s")
    wait_text("main", "Updated ▼")


@test("/ filters all panes, Esc clears")
def filter_rows():
    token = next(row["lastName"] for row in newest(40) if len(row["lastName"]) >= 6)
    keys("main", "/")
    typed("main", token.lower())
    keys("main", "Enter")
    screen = wait_for("main", lambda text: f"/{token.lower()}" in text and "match" in text, what="filter applied")
    count = int(re.search(r"(\d+) of \d+ match", screen).group(1))
    shown = data_rows(screen)
    assert 1 <= count == len(shown), (token, count, shown)
    assert all(token.lower() in line.lower() for line in shown), (token, shown)
    keys("main", "3")
    wait_for("main", lambda text: "┌" in text and "match" in text, what="cards filtered")
    keys("main", "Escape", "2")
    wait_for("main", lambda text: "match" not in text, what="filter cleared")


@test("posting flow with a real geocode adds a row at the top")
def post_location():
    keys("main", "p")
    wait_text("main", "Where are you studying today?")
    typed("main", "Mountain View")
    keys("main", "Enter")
    typed("main", "github.com/e2e-demo")
    keys("main", "Enter")
    wait_text("main", "[ Finish ]")
    wait_text("main", "posted at city level (about 1 km)")  # the precision setting's default, stated
    keys("main", "Enter")
    wait_text("main", "Your location is posted")
    top = newest(1)[0]
    assert top["mapString"] == "Mountain View" and top["mediaURL"] == "https://github.com/e2e-demo", top
    name = f"{top['firstName']} {top['lastName']}"
    screen = wait_for("main", lambda text: "Updated" in text and data_rows(text)[0][2:].startswith(name), what="own row on top")
    assert data_rows(screen)[0].startswith("●"), "own row not marked"


@test("posting again asks to overwrite and updates the row")
def overwrite_location():
    key = newest(1)[0]["uniqueKey"]
    keys("main", "p")
    wait_text("main", "Where are you studying today?")
    typed("main", "Tokyo")
    keys("main", "Enter")
    typed("main", "github.com/e2e-two")
    keys("main", "Enter")
    wait_text("main", "[ Finish ]")
    keys("main", "Enter")
    wait_text("main", "Overwrite it?")
    keys("main", "Enter")
    deadline = time.time() + 10
    while True:
        mine = api(f"/v1/StudentLocation?where=%7B%22uniqueKey%22%3A%22{key}%22%7D")["results"]
        if mine and mine[0]["mapString"] == "Tokyo" or time.time() > deadline:
            break
        time.sleep(0.1)
    assert len(mine) == 1 and mine[0]["mapString"] == "Tokyo", mine
    wait_for("main", lambda text: "Tokyo" in text or "pins" in text, what="screen after overwrite")


@test("resize the window on each screen")
def resize():
    for pane in ["1", "2", "3"]:
        keys("main", pane)
        tmux("resize-window", "-t", "main", "-x", "70", "-y", "20")
        wait_for("main", lambda text: "On the Map" in text and len(text.split("\n")[0]) <= 70, what="70x20")
        tmux("resize-window", "-t", "main", "-x", "40", "-y", "10")
        wait_text("main", "Terminal too small")
        tmux("resize-window", "-t", "main", "-x", "160", "-y", "48")
        wait_for("main", lambda text: "On the Map" in text and "[ Refresh ]" in text, what="160x48")
    keys("main", "p")
    tmux("resize-window", "-t", "main", "-x", "60", "-y", "18")
    wait_text("main", "Where are you studying")
    keys("main", "Escape")
    tmux("resize-window", "-t", "main", "-x", "120", "-y", "40")
    wait_for("main", lambda text: "Where are you" not in text and "[ Refresh ]" in text, what="posting closed")


def app_pid(session):
    """The app's process in `session`'s pane: the shell's child."""
    shell = tmux("display-message", "-p", "-t", session, "#{pane_pid}").stdout.strip()
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(f"/proc/{shell}/task/{shell}/children") as handle:
            children = handle.read().split()
        if children:
            return int(children[0])
        time.sleep(0.1)
    raise AssertionError("no app process in the pane")


def process_state(pid):
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[0]


@test("Ctrl-Z in a shell with job control stops the app (its process, not one thread); fg draws it again")
def ctrl_z_stops():
    # An interactive bash, as in a terminal: the app is a job in a process group of its own
    # (start_app's `sh -c` would leave it in an orphaned group, where a stop is discarded).
    environment = {
        "TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": WORK, "PATH": os.environ.get("PATH", ""),
        "XDG_DATA_HOME": f"{WORK}/data", "XDG_CACHE_HOME": f"{WORK}/cache", "XDG_STATE_HOME": f"{WORK}/state",
        "XDG_CONFIG_HOME": f"{WORK}/config", "PS1": "shell$ ",
    }
    exports = " ".join(f"{key}='{value}'" for key, value in environment.items())
    tmux("new-session", "-d", "-s", "suspend", "-x", "120", "-y", "40", f"env -i {exports} bash --norc --noprofile -i")
    wait_text("suspend", "shell$")
    typed("suspend", f"'{BIN}/onthemap' --server '{SERVER}'")
    keys("suspend", "Enter")
    log_in("suspend")
    wait_for("suspend", lambda text: re.search(r"\d+ (?:of \d+ )?pins", text) is not None, what="the map")
    pid = app_pid("suspend")
    keys("suspend", "C-z")
    wait_text("suspend", "Stopped")
    assert process_state(pid) == "T", f"state {process_state(pid)} after Ctrl-Z: the app did not stop"
    typed("suspend", "fg")
    keys("suspend", "Enter")
    wait_for("suspend", lambda text: "pins" in text and "[ Refresh ]" in text, what="drawn again after fg")
    keys("suspend", "q")
    wait_for("suspend", lambda text: text.rstrip().endswith("shell$"), what="the shell's prompt after quitting")
    typed("suspend", 'echo "[exit $?]"')
    keys("suspend", "Enter")
    wait_text("suspend", "[exit 0]")
    tmux("kill-session", "-t", "suspend")


@test("a TERM without terminfo (xterm-ghostty, or kitty over ssh) -> drawn as xterm-256color, said once")
def term_without_terminfo():
    start_app("noterm", SERVER, extra={"TERM": "xterm-onthemap-nowhere"})
    screen = wait_text("noterm", "Log In")
    assert "Error opening terminal" not in screen, screen
    wait_text("noterm", "no terminfo for TERM=xterm-onthemap-nowhere: drawn as xterm-256color")
    log_in("noterm")
    wait_for("noterm", lambda text: re.search(r"\d+ (?:of \d+ )?pins", text) is not None, what="the map")
    keys("noterm", "q")
    wait_text("noterm", "[exit 0]")
    tmux("kill-session", "-t", "noterm")


def picture_app(name, answer, rows=40, cols=120):
    """The app on a pseudo-terminal (not tmux) that answers the graphics query as `answer`
    (pty_terminal.ANSWERS), logged in; returns it and its trace file once a frame of the Map pane
    with the class on it was drawn (the picture is sent within that frame)."""
    trace = os.path.join(WORK, f"{name}.trace")
    environment = {
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": WORK, "PATH": os.environ.get("PATH", ""),
        "XDG_DATA_HOME": f"{WORK}/{name}/data", "XDG_CACHE_HOME": f"{WORK}/{name}/cache",
        "XDG_STATE_HOME": f"{WORK}/{name}/state", "XDG_CONFIG_HOME": f"{WORK}/{name}/config", "ONTHEMAP_TRACE": trace,
    }
    app = PtyApp([f"{BIN}/onthemap", "--server", SERVER], environment, rows=rows, cols=cols, answer=answer)
    app.wait(lambda output: b"Log In" in output, what="the login screen")
    if not app.answered:
        said = open(trace).read()[:400] if os.path.exists(trace) else "(no trace)"
        raise AssertionError(f"the app did not ask the terminal (Kitty's query and DA1) before drawing: its trace "
                             f"{said!r}; it wrote {bytes(app.output[:200])!r}")
    app.send(f"{EMAIL}\t{PASSWORD}\r")
    wait_for_file(trace, lambda line: re.search(r" map:[1-9]", line) is not None, "a frame of the map with the class")
    return app


def sea_of(rows):
    """The picture's commonest opaque colour, and its share of the opaque pixels."""
    counts = colour_counts(rows)
    colour, count = max(counts.items(), key=lambda item: item[1])
    return colour, count / sum(counts.values())


@test("pictures: a terminal that answers Kitty's query gets the map as a picture, deleted on Table, resize, Ctrl-Z and quit")
def kitty_pictures():
    app = picture_app("kitty", "kitty")
    try:
        keys_, png = kitty_images(app.wait(lambda output: kitty_images(output), what="a Kitty picture"))[-1]
        width, height, rows = png_pixels(png)
        columns, lines = int(re.search(r"c=(\d+)", keys_).group(1)), int(re.search(r"r=(\d+)", keys_).group(1))
        assert columns == 120 and 30 <= lines < 40 and "z=-1" in keys_, keys_
        assert (width, height) == (columns * 10, lines * 20), (width, height, columns, lines)
        sea, share = sea_of(rows)
        assert sea == (14, 18, 26) and share > 0.5, (sea, share)  # the dark theme's sea (MapPixelPalette)
        assert len([count for count in colour_counts(rows).values() if count > 500]) >= 4, "sea, land, borders, pins"
        mark = app.mark()
        app.send("2")
        app.wait(lambda output: b"\x1b_Ga=d,d=I,i=1" in output[mark:], what="the picture deleted on Table")
        mark = app.mark()
        app.send("1")
        app.wait(lambda output: b"\x1b_Ga=T" in output[mark:], what="the picture back on Map")
        mark = app.mark()
        app.resize(30, 100)
        app.wait(lambda output: any("c=100" in k for k, _ in kitty_images(output[mark:])), what="the picture at 100 columns")
        assert b"\x1b_Ga=d,d=I,i=1" in app.output[mark:], "the old one deleted first"
        mark = app.mark()
        app.send("\x1a")  # Ctrl-Z: deleted; the test's process group is orphaned, so it goes on at once
        app.wait(lambda output: b"\x1b_Ga=d,d=I,i=1" in output[mark:] and b"\x1b_Ga=T" in output[mark:].split(b"a=d")[-1],
                 what="deleted on Ctrl-Z and drawn again")
        mark = app.mark()
        app.send("\x03")
        assert app.exited() == 0
        assert b"\x1b_Ga=d,d=I,i=1" in app.output[mark:], "deleted on quit"
    finally:
        app.close()


@test("pictures: a terminal that lists Sixel gets a Sixel map (decoded with sixel2png); one without pictures keeps Braille")
def sixel_pictures():
    app = picture_app("sixel", "sixel")
    try:
        sixel = sixel_images(app.wait(lambda output: sixel_images(output), what="a Sixel picture"))[-1]
        picture = os.path.join(WORK, "map.six")
        with open(picture, "wb") as handle:
            handle.write(sixel)
        subprocess.run(["sixel2png", "-i", picture, "-o", picture + ".png"], check=True, capture_output=True)
        with open(picture + ".png", "rb") as handle:
            width, height, rows = png_pixels(handle.read())
        assert width == 1200 and 600 < height <= 780, (width, height)
        sea, share = sea_of(rows)
        # Sixel's palette is in percent: the dark sea (14, 18, 26) within a step.
        assert all(abs(got - want) <= 4 for got, want in zip(sea, (14, 18, 26))) and share > 0.4, (sea, share)
        # An overlay over the picture: xterm keeps a Sixel picture's pixels under text written
        # over them, and draws them again in the overlay's blank cells when its window is next
        # exposed; only clearing the screen takes them out. The picture then comes in pieces
        # around the overlay; when the overlay closes, whole again, over rows written again.
        def pictures_sent(since):
            """Whether the output after `since` holds a frame's pictures whole: they are written
            in one sequence, the cursor saved before it and restored (ESC 8) after the last."""
            return lambda output: output.rfind(b"\x1b8", since) > output.rfind(b"\x1bP", since) >= 0

        mark = app.mark()
        app.send("?")
        app.wait(lambda output: b"Keys" in output[mark:] and pictures_sent(mark)(output), what="the help over the map")
        cleared = app.output.find(b"\x1b[2J", mark)
        assert 0 <= cleared < app.output.find(b"Keys", mark), "the screen is cleared before the help is drawn"
        mark = app.mark()
        app.send("\x1b")
        app.wait(pictures_sent(mark), what="the picture sent again when the help closes")
        assert len(sixel_images(app.output[mark:])) == 1, "the whole picture"
        assert b"\x1b[2J" not in app.output[mark:], "closing the help clears nothing"
        mark = app.mark()
        app.send("2")
        app.wait(lambda output: b"\x1b[2J" in output[mark:], what="the screen written again on Table")
        assert not sixel_images(app.output[mark:])
    finally:
        app.close()
    plain = picture_app("plain", "none")
    try:
        output = bytes(plain.output)
        assert not kitty_images(output) and not sixel_images(output)
        assert any(0x2800 < ord(character) <= 0x28FF for character in output.decode("utf-8", "replace")), "Braille"
    finally:
        plain.close()


def click(session, x, y):
    """A left click at the 0-based cell (x, y), as an xterm (X10 encoding) reports it."""
    typed(session, "\x1b[M " + chr(33 + x) + chr(33 + y))
    typed(session, "\x1b[M#" + chr(33 + x) + chr(33 + y))


@test("mouse: click tabs, click a row twice -> its link opens")
def mouse():
    click("main", 11, 1)
    wait_text("main", "Updated")
    click("main", 21, 1)
    wait_for("main", lambda text: "┌" in text and "Updated" not in text, what="cards")
    click("main", 11, 1)
    wait_text("main", "Updated")
    top = newest(1)[0]
    click("main", 5, 5)  # select the second row, so the first click on the top row only selects it
    time.sleep(0.2)
    before = len(opened_links())
    click("main", 5, 4)
    click("main", 5, 4)
    deadline = time.time() + 5
    while time.time() < deadline and len(opened_links()) == before:
        time.sleep(0.1)
    assert opened_links()[before:] == [[normalized(top["mediaURL"])]], (opened_links()[before:], top["mediaURL"])


@test("logout -> the login screen")
def logout():
    keys("main", "L")
    wait_text("main", "Don't have an account? Sign Up")
    keys("main", "Escape")
    wait_text("main", "[exit 0]")


NOISE = re.compile("[\u2800-\u28ff\u2500-\u259f]")  # Braille, box drawing, block elements


def cursor(session):
    """tmux's idea of the app's cursor: (x, y, visible)."""
    answer = tmux("display-message", "-p", "-t", session, "#{cursor_x},#{cursor_y},#{cursor_flag}").stdout
    x, y, flag = answer.strip().split(",")
    return int(x), int(y), flag == "1"


def said(session, needle, at_cursor, what):
    """Waits for `needle`, then checks the whole pane for Braille and box drawing and that the
    visible cursor's line, from the cursor on (or before it, for a field), passes `at_cursor`."""
    def ready(text):
        if needle not in text:
            return False
        x, y, visible = cursor(session)
        lines = text.split("\n")
        return visible and y < len(lines) and at_cursor(lines[y][:x], lines[y][x:])
    screen = wait_for(session, ready, what=f"{what}: {needle!r} and the cursor there")
    assert not NOISE.search(screen), f"{what}: Braille or box drawing on screen:\n{screen}"
    return screen


@test("accessible mode: login -> map in words -> table -> post -> logout, the cursor on the selection")
def accessible_mode():
    session = "access"
    start_app(session, SERVER, extra={"ACCESSIBLE": "1"})
    said(session, "Log In", lambda before, after: "Email" in before + after, "login, the email field")
    typed(session, EMAIL)
    said(session, EMAIL[-10:], lambda before, after: before.endswith(EMAIL[-10:]), "typed email, cursor after it")
    keys(session, "Tab")
    said(session, "Log In", lambda before, after: "Password" in before, "the password field")
    typed(session, PASSWORD)
    keys(session, "Enter")
    said(session, "Map of the whole world", lambda before, after: True, "the map in words")
    keys(session, "n")
    said(session, "of ", lambda before, after: after.startswith(">"), "n: the selected classmate's line")
    keys(session, "+")
    said(session, "Zoomed in to", lambda before, after: after.startswith(">"), "+: one sentence, cursor on the pin")
    keys(session, "F")
    said(session, "Fitted", lambda before, after: after.startswith(">"), "F: fitted")
    keys(session, "2")
    said(session, "Updated", lambda before, after: ">" in before + after[:2], "table: the selected row")
    keys(session, "j")
    said(session, "Updated", lambda before, after: ">" in before + after[:2], "j: the next row")
    keys(session, "p")
    said(session, "Where are you studying today?", lambda before, after: "Location" in before, "posting: location")
    typed(session, "Tokyo")
    said(session, "Tokyo", lambda before, after: before.endswith("Tokyo"), "typed place, cursor after it")
    keys(session, "Enter")
    typed(session, "github.com/e2e-two")
    said(session, "e2e-two", lambda before, after: before.endswith("e2e-two"), "typed link, cursor after it")
    keys(session, "Enter")
    said(session, "[ Finish ]", lambda before, after: after.startswith("[ Finish ]"), "preview: the Finish button")
    keys(session, "Enter")
    # The demo account may already have a row (when the suite posted before): then it asks.
    def asked_or_posted(text):
        return "Overwrite it?" in text or ("(you)" in text and "Post your location" not in text)
    if "Overwrite it?" in wait_for(session, asked_or_posted, what="the overwrite question or the posted row"):
        said(session, "Overwrite it?", lambda before, after: after.startswith("[ Overwrite ]"), "the overwrite button")
        keys(session, "Enter")
    screen = said(session, "(you)", lambda before, after: ">" in before + after[:2], "posted: your row said in words")
    keys(session, "L")
    # The email is kept: the password field has the focus.
    said(session, "Log In", lambda before, after: "Password" in before, "logged out: the password field")
    keys(session, "Escape")
    wait_text(session, "[exit 0]")


@test("sign up -> the new account is logged in")
def sign_up():
    start_app("signup", SERVER)
    wait_text("signup", "Don't have an account? Sign Up")
    keys("signup", "C-s")
    wait_text("signup", "Create an account")
    for text in ["Grace", "Hopper"]:
        typed("signup", text)
        keys("signup", "Tab")
    typed("signup", "grace@e2e.example")
    keys("signup", "Tab")
    typed("signup", "cobol-1959")
    keys("signup", "Enter")
    wait_for("signup", lambda text: "updated" in text and "Create an account" not in text, what="the main view")
    session = api("/v1/session", "POST", {"udacity": {"username": "grace@e2e.example", "password": "cobol-1959"}})
    key = session["account"]["key"]
    user = api(f"/v1/users/{key}")
    assert (user.get("first_name"), user.get("last_name")) == ("Grace", "Hopper"), user
    keys("signup", "q")
    wait_text("signup", "[exit 0]")


@test("hostile data: no escape takes effect, no unsafe link reaches the opener")
def hostile():
    insert_hostile_rows()
    before = len(opened_links())
    start_app("hostile", SERVER)
    log_in("hostile")
    wait_text("hostile", "updated")
    keys("hostile", "2")
    screen = wait_text("hostile", "RED NAME Hacker")
    plain = capture("hostile")
    for bad in ["PWNED", "\u202e", "\x9b", "\x1b", "OutOfRange", "NotANumber"]:
        assert bad not in plain, f"{bad!r} reached the screen"
    title = tmux("display-message", "-p", "-t", "hostile", "#{pane_title}").stdout
    assert "PWNED" not in title, title
    coloured = capture("hostile", escapes=True)
    for line in coloured.split("\n"):
        if "RED NAME" in line or "Hacker" in line:
            assert not re.search(r"\x1b\[(?:[0-9;]*;)?(?:31|38;5;1|5;31)m", line), f"injected colour: {line!r}"
    long_row = next(line for line in data_rows(screen) if "Long" in line)
    assert "…" in long_row and len(long_row) <= 120, long_row
    for row_index, line in enumerate(data_rows(screen)):
        if any(word in line for word in ["RED NAME", "Dash Link", "File Link"]):
            keys("hostile", "g")
            for _ in range(row_index):
                keys("hostile", "j")
            keys("hostile", "Enter")
            wait_text("hostile", "Not opening")
            time.sleep(0.3)
    assert len(opened_links()) == before, opened_links()[before:]
    for arguments in opened_links():
        assert len(arguments) == 1 and re.match(r"^https?://", arguments[0], re.I), arguments
    keys("hostile", "q")
    wait_text("hostile", "[exit 0]")


@test("onthemap login once -> the app opens on the map, no login form; logout ends it")
def stored_session():
    environment = {"PATH": os.environ.get("PATH", ""), "HOME": WORK, "XDG_DATA_HOME": f"{WORK}/data",
                   "XDG_STATE_HOME": f"{WORK}/state"}
    login = subprocess.run([f"{BIN}/onthemap", "login", "--email", EMAIL, "--password-stdin", "--server", SERVER],
                           input=PASSWORD + "\n", capture_output=True, text=True, env=environment)
    assert login.returncode == 0, login.stderr
    start_app("stored", SERVER)
    screen = wait_text("stored", "1 Map")
    assert "Log In" not in screen, screen
    keys("stored", "q")
    wait_text("stored", "[exit 0]")
    logout = subprocess.run([f"{BIN}/onthemap", "logout", "--server", SERVER], capture_output=True, text=True,
                            env=environment)
    assert logout.returncode == 0, logout.stderr
    whoami = subprocess.run([f"{BIN}/onthemap", "whoami", "--server", SERVER], capture_output=True, text=True,
                            env=environment)
    assert whoami.returncode == 3, (whoami.returncode, whoami.stderr)


@test("a server without Facebook -> no Facebook line on the login screen")
def no_facebook_line():
    trace = f"{WORK}/nofb-trace.txt"
    start_app("nofb", SERVER, trace=trace)
    wait_text("nofb", "Log In")
    # The event: the first frame drawn after discovery answered (the app's trace names it
    # `login:providers=N`). Then a typed marker: once tmux shows it, it has shown that frame too.
    frame = wait_for_file(trace, lambda line: " frame " in line and " login:providers=" in line, "discovery's frame")
    assert frame.split()[-1] == "login:providers=0", frame
    typed("nofb", "drawn@")
    screen = wait_text("nofb", "drawn@")
    assert "Log in with" not in screen, screen
    tmux("kill-session", "-t", "nofb", check=False)


@test("Facebook: Ctrl-F -> the user code and a QR code")
def facebook_code_and_qr():
    start_facebook_server()
    start_app("fb", FB_SERVER)
    wait_text("fb", "[ Log in with Facebook ]")
    keys("fb", "C-f")
    screen = wait_text("fb", "F B E 2 - E 2 E 7")
    assert "https://www.facebook.com/device" in screen, screen
    qr_lines = [line for line in screen.split("\n") if sum(line.count(c) for c in "▀▄█") >= 10]
    assert len(qr_lines) >= 10, screen


@test("Facebook: the stand-in approves -> the map with pins; logout -> the login screen")
def facebook_approved():
    standin_control("approve")
    def pins_shown(text):
        match = re.search(r"(\d+) (?:of \d+ )?pins", text)
        return "updated" in text and match is not None and int(match.group(1)) >= 20
    wait_for("fb", pins_shown, timeout=60, what="20 or more pins")
    keys("fb", "L")
    wait_text("fb", "[ Log in with Facebook ]")


@test("Facebook: denied -> its alert; expired -> its alert")
def facebook_denied_and_expired():
    for outcome, message in (("deny", "The Facebook login was declined."), ("expire", "The code expired before")):
        keys("fb", "C-f")
        wait_text("fb", "F B E 2 - E 2 E 7")
        standin_control(outcome)
        wait_text("fb", message, timeout=60)
        keys("fb", "Enter")
        wait_for("fb", lambda text: message not in text, what="alert dismissed")


def add_user(email, password, first, last, role=None):
    """An account made by the operator's command (beside the running server); returns its key."""
    command = [f"{BIN}/onthemap-server", "user", "add", "--email", email, "--password-stdin",
               "--first-name", first, "--last-name", last, "--database", DATABASE]
    if role:
        command += ["--role", role]  # Docs/Access.md: roles arrive with the moderation server work
    result = subprocess.run(command, capture_output=True, text=True, input=password + "\n")
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("\n")[-1]


def session_id(email, password):
    return api("/v1/session", "POST", {"udacity": {"username": email, "password": password}})["session"]["id"]


def post_row(session, key, first, last, place, latitude, longitude):
    """Posts a row as the account of `session` (a bearer token); returns its objectId."""
    body = {"uniqueKey": key, "firstName": first, "lastName": last, "mapString": place,
            "mediaURL": "https://e2e.example", "latitude": latitude, "longitude": longitude}
    request = urllib.request.Request(SERVER + "/v1/StudentLocation", method="POST", data=json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {session}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read().decode())["objectId"]


def rows_of(key):
    return api(f"/v1/StudentLocation?where=%7B%22uniqueKey%22%3A%22{key}%22%7D")["results"]


def filter_table(session, text):
    keys(session, "2")
    wait_text(session, "Updated")
    keys(session, "/")
    typed(session, text)
    keys(session, "Enter")


@test("D -> a question, y -> your pin is gone from the table at once and from the server")
def delete_own_pin():
    email, password = "dora@e2e.example", "delete-me-1"
    key = add_user(email, password, "Dora", "Deleter")
    object_id = post_row(session_id(email, password), key, "Dora", "Deleter", "Reykjavik, Iceland", 64.1, -21.9)
    start_app("del", SERVER)
    log_in("del", email, password)
    wait_text("del", "updated")
    filter_table("del", "Dora")
    wait_text("del", "Dora Deleter")
    keys("del", "D")
    screen = wait_text("del", "Delete your pin?")
    assert "Reykjavik" in screen, screen
    keys("del", "y")
    wait_text("del", "Deleted your pin at Reykjavik")
    wait_text("del", "Nothing matches")
    assert all(row["objectId"] != object_id for row in rows_of(key)), rows_of(key)
    keys("del", "q")
    wait_text("del", "[exit 0]")


@test("a moderator hides a row with a reason -> marked for them, gone from another app after refresh")
def moderator_hides_a_row():
    # Needs the moderation server (onthemap-server user add --role, POST …/hide; Docs/Access.md).
    add_user("mod@e2e.example", "moderate-1", "Mona", "Moderator", role="moderator")
    email, password = "hidey@e2e.example", "hide-me-1"
    key = add_user(email, password, "Hidey", "Target")
    object_id = post_row(session_id(email, password), key, "Hidey", "Target", "Quito, Ecuador", -0.2, -78.5)
    start_app("viewer", SERVER)
    log_in("viewer")
    wait_text("viewer", "updated")
    filter_table("viewer", "Hidey")
    wait_text("viewer", "Hidey Target")
    start_app("mod", SERVER)
    log_in("mod", "mod@e2e.example", "moderate-1")
    wait_text("mod", "updated")
    filter_table("mod", "Hidey")
    wait_text("mod", "Hidey Target")
    keys("mod", "H")
    wait_text("mod", "Hide a row")
    typed("mod", "e2e: not a real place")
    keys("mod", "Enter")
    wait_text("mod", "[hidden] Hidey Target")
    keys("viewer", "r")
    wait_text("viewer", "Nothing matches")
    assert all(row["objectId"] != object_id for row in newest(50)), "still in the public list"
    for session in ("mod", "viewer"):
        keys(session, "q")
        wait_text(session, "[exit 0]")


@test("live: a post through REST appears on two apps' map and table, with its toast, no key pressed")
def live_post():
    start_app("livemap", SERVER, width=140)
    log_in("livemap")
    start_app("livetable", SERVER, width=140)
    log_in("livetable")
    for session in ("livemap", "livetable"):
        wait_for(session, lambda text: " · live · " in text, what="the live status")
    keys("livetable", "2")
    wait_text("livetable", "Updated")
    before = wait_for("livemap", lambda text: re.search(r"(\d+) locations", text), what="the count")
    count = int(re.search(r"(\d+) locations", before).group(1))
    api("/v1/StudentLocation", "POST", {
        "uniqueKey": "e2e-live", "firstName": "Ada", "lastName": "Lovelace", "mapString": "Lisbon",
        "mediaURL": "https://ada.example/live", "latitude": 38.72, "longitude": -9.14})
    for session in ("livemap", "livetable"):
        wait_text(session, "Ada Lovelace posted from Lisbon")
    wait_text("livemap", "new: Ada Lovelace (Lisbon)")
    wait_text("livemap", f"{count + 1} locations")
    # On top of the rows of the same age or older (rows dated in the future, as the hostile ones, stay above it).
    wait_for("livetable", lambda text: any("new Ada Lovelace" in row and "Lisbon" in row for row in data_rows(text)),
             what="the new row, tagged")


@test("live: the server restarted on the same port -> the app reconnects and shows a row posted while away")
def live_reconnect():
    port = int(SERVER.rsplit(":", 1)[1])
    stop_server()
    wait_for("livetable", lambda text: "reconnecting" in text, what="reconnecting in the footer")
    now = time.strftime("%Y-%m-%dT%H:%M:%S.999Z", time.gmtime(time.time() + 7200))
    with sqlite3.connect(DATABASE, timeout=10) as db:
        db.execute(
            "INSERT INTO student_location (object_id, unique_key, first_name, last_name, map_string, media_url,"
            " latitude, longitude, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            ("away1", "e2e-away", "Grace", "Away", "Porto", "https://grace.example", 41.15, -8.61, now, now))
    start_server(port=port)
    assert SERVER.endswith(f":{port}"), SERVER
    screen = wait_for("livetable", lambda text: " · live · " in text and any("Grace Away" in row for row in data_rows(text)),
                      timeout=90, what="live again with the row posted while away")
    assert "Porto" in next(row for row in data_rows(screen) if "Grace Away" in row)


@test("server stopped -> 'cannot reach' alert")
def server_stopped():
    stop_server()
    start_app("down", SERVER)
    log_in("down")
    wait_text("down", "Cannot reach the server at " + SERVER.split("//")[1])


@test("server stopped -> the cached copy, marked offline")
def offline_copy():
    wait_for("down", lambda text: "Press o to" in text and "offline." in text, what="the offer of the cached copy")
    keys("down", "o")
    wait_text("down", "offline · data from")
    keys("down", "2")
    wait_text("down", "Updated")


# MARK: - Server and data

def insert_hostile_rows():
    now = time.strftime("%Y-%m-%dT%H:%M:%S.999Z", time.gmtime(time.time() + 3600))
    rows = [
        ("h1", "\x1b[31mRED", "NAME\x1b[0m \x1b]0;PWNED\x07Hacker", "\u202eevil place\u202c \x9b2J", "javascript:alert(1)", 10.0, 10.0),
        ("h2", "Long", "A" * 10240, "B" * 10240, "https://example.com/" + "c" * 10000, 20.0, 20.0),
        ("h3", "Dash", "Link", "Nowhere", "-oProxyCommand=evil", 30.0, 30.0),
        ("h4", "File", "Link", "Nowhere", "file:///etc/passwd", 40.0, 40.0),
        ("h5", "OutOfRange", "Row", "Nowhere", "https://x.example", 999.0, 10.0),
        ("h6", "NotANumber", "Row", "Nowhere", "https://y.example", float("nan"), 10.0),
        ("h7", "C1\x85\x9d0;PWNED\x9cSafe", "Row", "Here", "https://ok.example/c1", 50.0, 50.0),
    ]
    with sqlite3.connect(DATABASE, timeout=10) as db:
        for object_id, first, last, place, link, latitude, longitude in rows:
            db.execute(
                "INSERT INTO student_location (object_id, unique_key, first_name, last_name, map_string, media_url,"
                " latitude, longitude, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (object_id, "hostile", first, last, place, link, latitude, longitude, now, now))
    # Written behind the server's back: its list cache may answer from memory until its lifetime ends.
    time.sleep(LIST_CACHE_SECONDS + 0.2)


SERVER_PROCESS = None
SERVER = ""
LIST_CACHE_SECONDS = 1  # the server's default, given explicitly because insert_hostile_rows waits it out


def start_server(port=0):
    """Seeds the demo class (first start) and serves DATABASE on `port` (0: a free one)."""
    global SERVER_PROCESS, SERVER
    if port == 0:
        subprocess.run([f"{BIN}/onthemap-server", "seed", "--demo", "--database", DATABASE], check=True, capture_output=True)
    log = open(os.path.join(WORK, "server.log"), "w")
    SERVER_PROCESS = subprocess.Popen(
        [f"{BIN}/onthemap-server", "serve", "--port", str(port), "--database", DATABASE, "--open-writes", "--log-level", "notice",
         "--list-cache-seconds", str(LIST_CACHE_SECONDS)],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(os.path.join(WORK, "server.log")) as handle:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", handle.read())
        if match:
            SERVER = match.group(1)
            return
        time.sleep(0.1)
    raise RuntimeError("onthemap-server did not start")


FB_PROCESSES = []
FB_SERVER = ""
STANDIN = ""


def start_facebook_server():
    """The stand-in for Facebook's Graph API, and a second server (its own demo database) configured for it."""
    global FB_SERVER, STANDIN
    port_file = os.path.join(WORK, "standin.port")
    here = os.path.dirname(os.path.abspath(__file__))
    FB_PROCESSES.append(subprocess.Popen([sys.executable, os.path.join(here, "provider_standin.py"), port_file]))
    deadline = time.time() + 15
    while time.time() < deadline and not (os.path.exists(port_file) and open(port_file).read().strip()):
        time.sleep(0.05)
    STANDIN = "http://127.0.0.1:" + open(port_file).read().strip()
    database = os.path.join(WORK, "facebook.sqlite")
    subprocess.run([f"{BIN}/onthemap-server", "seed", "--demo", "--database", database], check=True, capture_output=True)
    log_path = os.path.join(WORK, "facebook-server.log")
    environment = dict(os.environ, ONTHEMAP_FACEBOOK_APP_SECRET="e2e-secret")
    FB_PROCESSES.append(subprocess.Popen(
        [f"{BIN}/onthemap-server", "serve", "--port", "0", "--database", database, "--log-level", "notice",
         "--facebook-app-id", "e2e-app", "--facebook-client-token", "e2e-client-token",
         "--facebook-graph-url", STANDIN + "/graph"],
        stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=environment))
    deadline = time.time() + 30
    while time.time() < deadline:
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", open(log_path).read())
        if match:
            FB_SERVER = match.group(1)
            assert "e2e-secret" not in open(log_path).read()
            return
        time.sleep(0.1)
    raise RuntimeError("onthemap-server with Facebook did not start")


def standin_control(outcome):
    urllib.request.urlopen(urllib.request.Request(f"{STANDIN}/control/{outcome}", method="POST", data=b""), timeout=10).read()


def stop_server():
    for process in FB_PROCESSES:
        if process.poll() is None:
            process.terminate()
    if SERVER_PROCESS and SERVER_PROCESS.poll() is None:
        SERVER_PROCESS.send_signal(signal.SIGTERM)
        try:
            SERVER_PROCESS.wait(timeout=10)
        except subprocess.TimeoutExpired:
            SERVER_PROCESS.kill()


def main():
    with open(f"{WORK}/browser.sh", "w") as handle:
        handle.write("#!/usr/bin/env python3\nimport json, sys\n"
                     f"open({RECORDER_LOG!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    os.chmod(f"{WORK}/browser.sh", 0o755)
    passed = failed = 0
    try:
        start_server()
        only = os.environ.get("E2E_ONLY", "")  # a part of the names of the tests to run
        for name, function in [(name, function) for name, function in results if only in name]:
            started = time.time()
            try:
                function()
                passed += 1
                print(f"ok    {name} ({time.time() - started:.1f} s)", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL  {name}\n{traceback.format_exc()}", flush=True)
    finally:
        stop_server()
        tmux("kill-server", check=False)
        if failed == 0 and not os.environ.get("E2E_KEEP"):
            shutil.rmtree(WORK, ignore_errors=True)
        else:
            print(f"work dir kept: {WORK}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
