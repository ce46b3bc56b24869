#!/usr/bin/env python3
"""The onthemap app in real terminals, headless: Xvfb, xdotool, screenshots, tesseract.

For each terminal (xterm -ti vt340, kitty, mlterm, konsole, alacritty) on a dark and on a light
background, this starts a private Xvfb, starts the terminal with a fixed geometry, font and
colours, runs the app in it from an interactive bash (fresh HOME and XDG folders: the app starts
its built-in demo server), types like a user with xdotool, and after every step takes a
screenshot and reads it:

  pixels  the map area is a picture where the terminal shows one (Braille where it shows none);
          no map colour inside an overlay (help, go-to completions, posting form, y/n dialog),
          in the Table or in the Cards pane; none left while suspended or after quit;
          every Table row readable (its text and background far enough apart).
  text    tesseract reads the footer, the scale line, the completions and the Table's names,
          compared with what the app meant to draw: the same steps run in a tmux "twin" of the
          same size, whose capture-pane text is the reference (and gives the overlays' boxes).

Usage:
  python3 Tests/terminals/real_terminals.py /path/to/onthemap \
      [--terminals xterm,kitty,mlterm,konsole,alacritty,xterm-biggraphics] [--backgrounds dark,light] \
      [--shots /tmp/terminal-shots] [--cols 160 --rows 48] [--app-arg=--theme=light] [--keep]
  python3 Tests/terminals/real_terminals.py --control kitty-holes   (kitty alone, no app)

Needs (Debian): xvfb x11-apps x11-utils x11-xserver-utils xdotool imagemagick tesseract-ocr tesseract-ocr-eng tmux
fonts-dejavu-core ncurses-term, and the terminals: xterm kitty mlterm alacritty konsole
(kitty and alacritty draw with GL: libgl1-mesa-dri, LIBGL_ALWAYS_SOFTWARE=1 is set for them).
Python 3 standard library only. A terminal that cannot start here (not installed, no window
within its deadline) is SKIP with the reason, never PASS. The last line is
`N passed, N failed, N skipped` (one count per terminal and background); exit 1 on a failure.

Screenshots: <shots>/<terminal>-<background>-<NN-step>.png, and for a failed pixel check
<...>-checked.png with the box that was checked outlined in red.
"""
import argparse
import collections
import concurrent.futures
import difflib
import fcntl
import hashlib
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import traceback

EMAIL, PASSWORD = "demo@onthemap.example", "onthemap"
BACKGROUNDS = {  # (background, foreground): xterm's own defaults are the light pair
    "dark": ("#000000", "#e5e5e5"),
    "light": ("#ffffff", "#000000"),
}
# The map picture's sea per theme (Sources/TerminalUI/Screens/MapPixelPalette.swift).
THEME_SEA = {"dark": (14, 18, 26), "light": (250, 250, 246)}
# Its land: the theme's coast green (256 colours: 71 dark, 28 light) 72 % of the way to the sea.
THEME_LAND = {"dark": (37, 62, 45), "light": (180, 218, 177)}
DEPENDENCIES = ["Xvfb", "xdotool", "xwd", "xwininfo", "xrefresh", "tesseract", "tmux"]


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def run(argv, timeout=30, **kwargs):
    return subprocess.run(argv, capture_output=True, timeout=timeout, **kwargs)


def convert_tool():
    """ImageMagick's convert by its real name: a `convert` first on PATH may be a stand-in."""
    for name in ("convert-im6.q16", "convert-im7.q16", "magick"):
        if shutil.which(name):
            return name
    return "convert"


CONVERT = convert_tool()


# MARK: - Pictures (PPM, read with the standard library)

class Shot:
    """A screenshot: `width` x `height` RGB pixels, and the files it was saved as."""

    def __init__(self, data, width, height, ppm=None, png=None):
        self.data, self.width, self.height, self.ppm, self.png = data, width, height, ppm, png

    @staticmethod
    def from_ppm(blob):
        # P6\n<w> <h>\n<max>\n<bytes>
        parts, position = [], 0
        while len(parts) < 4:
            while blob[position:position + 1].isspace():
                position += 1
            if blob[position:position + 1] == b"#":
                position = blob.index(b"\n", position) + 1
                continue
            end = position
            while not blob[end:end + 1].isspace():
                end += 1
            parts.append(blob[position:end])
            position = end
        assert parts[0] == b"P6" and parts[3] == b"255", parts
        width, height = int(parts[1]), int(parts[2])
        return Shot(blob[position + 1:position + 1 + width * height * 3], width, height)

    def digest(self):
        return hashlib.sha1(self.data).hexdigest()

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])

    def counts(self, box, step=1):
        """Colour → pixel count inside box (x, y, w, h), every `step`th pixel each way."""
        x, y, w, h = clip(box, self.width, self.height)
        counter = collections.Counter()
        for row in range(y, y + h, step):
            start = (row * self.width + x) * 3
            line = self.data[start:start + w * 3]
            counter.update(zip(line[0::3 * step], line[1::3 * step], line[2::3 * step]))
        return counter


def clip(box, width, height):
    x, y, w, h = box
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(width, x + w), min(height, y + h)
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def near(a, b, tolerance):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def same_tint(a, b, tolerance=2):
    """Whether a and b lean the same way from grey ((r−b, g−b) within `tolerance`): the light
    sea (250, 250, 246) is 4 from white, and so are the grey edges of text antialiased on a white
    background, which are not the map."""
    return abs((a[0] - a[2]) - (b[0] - b[2])) <= tolerance and abs((a[1] - a[2]) - (b[1] - b[2])) <= tolerance


def share_of(counter, colours, tolerance=6):
    """How many of counter's pixels are within `tolerance` of one of `colours`, with the same
    tint, and their share."""
    total = sum(counter.values()) or 1
    hits = sum(n for colour, n in counter.items()
               if any(near(colour, c, tolerance) and same_tint(colour, c) for c in colours))
    return hits, hits / total


def luminance(colour):
    r, g, b = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b):
    """WCAG 2's contrast ratio of two sRGB colours (1 to 21)."""
    def relative(colour):
        channels = [c / 255 for c in colour]
        channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    high, low = sorted((relative(a), relative(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# MARK: - The X side: a private Xvfb, a terminal, keys and screenshots

class Display:
    """A private Xvfb: it picks a free display number itself (-displayfd), so two runs never
    race for one; a few tries in case one dies at start."""

    def __init__(self, log_dir, size="1600x1000x24"):
        self.process = None
        for attempt in range(3):
            read, write = os.pipe()
            log = open(os.path.join(log_dir, f"xvfb-{os.getpid()}-{attempt}.log"), "w")
            process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
                                       stdout=log, stderr=subprocess.STDOUT, start_new_session=True, pass_fds=(write,))
            os.close(write)
            number = b""
            deadline = time.time() + 15
            while time.time() < deadline and process.poll() is None and not number.endswith(b"\n"):
                ready, _, _ = select.select([read], [], [], 0.2)
                if ready:
                    chunk = os.read(read, 16)
                    if not chunk:
                        break
                    number += chunk
            os.close(read)
            if number.strip().isdigit() and process.poll() is None:
                name = f":{number.strip().decode()}"
                if run(["xdpyinfo", "-display", name], timeout=10).returncode == 0:
                    self.process, self.name = process, name
                    return
            if process.poll() is None:
                process.kill()
            process.wait()
        raise RuntimeError("Xvfb did not start (see xvfb-*.log in the work folder)")

    def close(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def xdo(display, *args, timeout=20):
    return run(["xdotool", *args], timeout=timeout, env=dict(os.environ, DISPLAY=display))


def window_geometry(display, window):
    """(x, y, width, height) of `window` on the root."""
    out = run(["xwininfo", "-display", display, "-id", str(window)]).stdout.decode()
    values = {key: int(re.search(rf"{key}:\s+(-?\d+)", out).group(1))
              for key in ("Absolute upper-left X", "Absolute upper-left Y", "Width", "Height")}
    return (values["Absolute upper-left X"], values["Absolute upper-left Y"], values["Width"], values["Height"])


def grab(display, box):
    """The root window's pixels inside box, as a Shot (xwd, read here: ImageMagick took a
    third of a run's time converting whole screens)."""
    xwd = run(["xwd", "-root", "-silent", "-display", display], timeout=30)
    if xwd.returncode != 0:
        raise RuntimeError("xwd failed: " + xwd.stderr.decode()[-300:])
    return crop_xwd(xwd.stdout, box)


def crop_xwd(blob, box):
    """The pixels inside box of an xwd dump of a 24-bit TrueColor screen (32 bits a pixel, the
    masks saying where red, green and blue lie), as a Shot."""
    fields = struct.unpack(">25I", blob[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    masks, colours = fields[14:17], fields[19]
    if bits_per_pixel not in (24, 32):
        raise RuntimeError(f"xwd: {bits_per_pixel} bits a pixel (the harness reads 24 or 32)")
    stride = bits_per_pixel // 8
    x, y, w, h = clip(box, width, height)
    start = header_size + colours * 12
    # Byte i of a pixel in the dump holds the bits from 8*i up (LSBFirst), or the other way round.
    def byte_of(mask):
        shift = (mask & -mask).bit_length() - 1
        return shift // 8 if byte_order == 0 else stride - 1 - shift // 8
    red, green, blue = (byte_of(mask) for mask in masks)
    out = bytearray(w * h * 3)
    for row in range(h):
        first = start + (y + row) * bytes_per_line + x * stride
        line = blob[first:first + w * stride]
        offset = row * w * 3
        out[offset:offset + w * 3:3] = line[red::stride]
        out[offset + 1:offset + w * 3:3] = line[green::stride]
        out[offset + 2:offset + w * 3:3] = line[blue::stride]
    return Shot(bytes(out), w, h)


def save(shot, path_png, work):
    ppm = os.path.join(work, os.path.basename(path_png)[:-4] + ".ppm")
    with open(ppm, "wb") as handle:
        handle.write(f"P6\n{shot.width} {shot.height}\n255\n".encode() + shot.data)
    run([CONVERT, ppm, path_png])
    shot.ppm, shot.png = ppm, path_png
    return shot


def outline(shot, boxes, path):
    """A copy of the shot's PNG with `boxes` outlined in red (what a pixel check looked at)."""
    draws = []
    for x, y, w, h in boxes:
        draws += ["-draw", f"rectangle {x},{y} {x + w - 1},{y + h - 1}"]
    run([CONVERT, shot.png, "-fill", "none", "-stroke", "red", "-strokewidth", "2", *draws, path])
    return path


def negated_if_dark(shot, box):
    """ImageMagick's `-negate` when box (pixels, clipped) is mostly dark: tesseract reads dark
    text on light."""
    counter = shot.counts(box, step=2)
    mean = sum(luminance(c) * n for c, n in counter.items()) / max(1, sum(counter.values()))
    return ["-negate"] if mean < 128 else []


def tesseract(png, lines):
    """tesseract's reading of the picture file `png` (removed after): one line, or a block."""
    result = run(["tesseract", png, "-", "--psm", "7" if lines == 1 else "6", "-l", "eng"], timeout=60)
    os.unlink(png)
    return result.stdout.decode(errors="replace").strip()


def ocr(shot, box, work, lines=1, label="ocr", scale=300):
    """tesseract's reading of box (pixels): scaled (3x), grey, dark text on light."""
    x, y, w, h = clip(box, shot.width, shot.height)
    if w < 4 or h < 4:
        return ""
    out = os.path.join(work, f"{label}-{time.time_ns()}.png")
    run([CONVERT, shot.ppm, "-crop", f"{w}x{h}+{x}+{y}", "+repage", "-colorspace", "Gray",
         *negated_if_dark(shot, (x, y, w, h)), "-resize", f"{scale}%", "-normalize", "-bordercolor", "white",
         "-border", "12", out])
    return tesseract(out, lines)


def ocr_rows(shot, boxes, work, scale=300):
    """tesseract's reading of boxes (one line of text each) in one call: the boxes cropped, each
    made dark text on light, stacked with a gap, read as a block; the lines read, in order (a
    line tesseract drops is missing, so the caller matches each box near its own place)."""
    args = [CONVERT, shot.ppm]
    for box in boxes:
        x, y, w, h = clip(box, shot.width, shot.height)
        args += ["(", "-clone", "0", "-gravity", "northwest", "-crop", f"{w}x{h}+{x}+{y}", "+repage", "-colorspace", "Gray",
                 *negated_if_dark(shot, (x, y, w, h)), "-normalize", "-background", "white", "-gravity", "south",
                 "-splice", "0x8", ")"]
    out = os.path.join(work, f"rows-{time.time_ns()}.png")
    args += ["-delete", "0", "-gravity", "northwest", "-background", "white", "-append", "-resize", f"{scale}%",
             "-bordercolor", "white", "-border", "12", out]
    run(args)
    return [line.strip() for line in tesseract(out, lines=2).splitlines() if line.strip()]


class Grid:
    """Where the terminal's cells are in a screenshot: found from the app's footer, the
    reverse-video bar on the last row, which spans every column."""

    def __init__(self, x0, y0, cell_w, cell_h, cols, rows):
        self.x0, self.y0, self.cell_w, self.cell_h, self.cols, self.rows = x0, y0, cell_w, cell_h, cols, rows

    def box(self, col, row, w, h):
        return (round(self.x0 + col * self.cell_w), round(self.y0 + row * self.cell_h),
                round(w * self.cell_w), round(h * self.cell_h))

    def __repr__(self):
        return f"Grid(origin=({self.x0},{self.y0}), cell={self.cell_w:.2f}x{self.cell_h:.2f}, {self.cols}x{self.rows})"


def find_grid(shot, cols, rows, background):
    """The footer bar: from the bottom up, the first run of pixel rows of one colour (over half of
    each row), not the terminal's background, as tall as a cell can be; its columns give the
    grid's left and right edges, its height a cell's. (Its colour is whatever the terminal makes
    of reverse video.)"""
    def dominant(y):
        start = y * shot.width * 3
        line = shot.data[start:start + shot.width * 3]
        colour, count = collections.Counter(zip(line[0::3], line[1::3], line[2::3])).most_common(1)[0]
        return colour if count >= shot.width / 2 else None
    y = shot.height - 1
    found = None
    while y >= 0 and found is None:
        colour = dominant(y)
        bottom = y
        while y >= 0 and colour is not None and dominant(y) == colour:
            y -= 1
        if colour is None:
            y -= 1
            continue
        height = bottom - y
        if 8 <= height <= 40 and not near(colour, background, 10):
            found = (colour, y + 1, bottom)
    if found is None:
        return None
    colour, top, bottom = found
    cell_h = bottom - top + 1
    columns = []
    for x in range(shot.width):
        hits = sum(1 for yy in range(top, bottom + 1) if near(shot.pixel(x, yy), colour, 24))
        # Not a window border of the same colour: the row above the bar (the filter line) is not.
        if hits / cell_h >= 0.2 and not near(shot.pixel(x, max(0, top - cell_h // 2)), colour, 24):
            columns.append(x)
    if not columns:
        return None
    x0, x1 = columns[0], columns[-1]
    return Grid(x0, bottom + 1 - rows * cell_h, (x1 - x0 + 1) / cols, cell_h, cols, rows)


# MARK: - Terminals

# kitty draws with OpenGL: Mesa's software renderer. Its default, llvmpipe, draws kitty 0.26.5
# wrongly here (`--control kitty-holes`: a white background cyan, no picture on it, stale pixels
# under a transparent hole); softpipe draws it right, slower (OTM_KITTY_GALLIUM=llvmpipe to see).
KITTY_GL = {"LIBGL_ALWAYS_SOFTWARE": "1", "GALLIUM_DRIVER": os.environ.get("OTM_KITTY_GALLIUM", "softpipe")}


def terminal_command(name, home, cols, rows, bg, fg, title, shell):
    """(argv, extra environment, description) to start terminal `name` running `shell`."""
    if name in ("xterm", "xterm-biggraphics", "xterm-fixed"):
        # DejaVu Sans Mono 10 as the others (1280 pixels wide: over xterm's default 1000-pixel
        # limit); xterm-fixed: xterm's own bitmap font, 6x13.
        font = [] if name == "xterm-fixed" else ["-fa", "DejaVu Sans Mono", "-fs", "10"]
        argv = ["xterm", "-ti", "vt340", *font, "-geometry", f"{cols}x{rows}+0+0",
                "-bg", bg, "-fg", fg, "-title", title]
        if name == "xterm-biggraphics":  # the limit raised: not a default resource
            argv += ["-xrm", "XTerm*maxGraphicSize: 4096x4096", "-xrm", "XTerm*numColorRegisters: 256"]
        return argv + ["-e", *shell], {}, "xterm -ti vt340 (Sixel)"
    if name == "kitty":
        argv = ["kitty", "--config", "NONE", "-o", "font_family=DejaVu Sans Mono", "-o", "font_size=10",
                "-o", f"initial_window_width={cols}c", "-o", f"initial_window_height={rows}c",
                "-o", "remember_window_size=no", "-o", "window_padding_width=0", "-o", f"background={bg}",
                "-o", f"foreground={fg}", "-o", "cursor_blink_interval=0", "-o", "shell_integration=disabled",
                "-o", "confirm_os_window_close=0", "--class", "otmkitty", "--title", title, *shell]
        return argv, KITTY_GL, "kitty (Kitty graphics)"
    if name == "mlterm":
        os.makedirs(os.path.join(home, ".mlterm"), exist_ok=True)
        with open(os.path.join(home, ".mlterm", "aafont"), "w") as handle:
            handle.write("DEFAULT=DejaVu Sans Mono\nISO10646_UCS4_1=DejaVu Sans Mono\nU+2800-28FF=DejaVu Sans\n")
        argv = ["mlterm", "-g", f"{cols}x{rows}+0+0", "-w", "13", "-A", f"--bg={bg}", f"--fg={fg}", "-T", title,
                "-O", "none", "-e", *shell]
        return argv, {}, "mlterm (Sixel)"
    if name == "alacritty":
        folder = os.path.join(home, ".config", "alacritty")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "alacritty.yml"), "w") as handle:
            handle.write(f"""window:
  dimensions: {{columns: {cols}, lines: {rows}}}
  padding: {{x: 0, y: 0}}
  title: {title}
  dynamic_title: false
font:
  normal: {{family: DejaVu Sans Mono}}
  size: 10
cursor:
  blinking: Never
colors:
  primary: {{background: '{bg}', foreground: '{fg}'}}
""")
        argv = ["alacritty", "--config-file", os.path.join(folder, "alacritty.yml"), "-e", *shell]
        return argv, {"LIBGL_ALWAYS_SOFTWARE": "1"}, "alacritty (no pictures)"
    if name == "konsole":
        data = os.path.join(home, ".local", "share", "konsole")
        os.makedirs(data, exist_ok=True)
        os.makedirs(os.path.join(home, ".config"), exist_ok=True)
        b, f = rgb(bg), rgb(fg)
        with open(os.path.join(data, "otm.colorscheme"), "w") as handle:
            handle.write("[General]\nDescription=otm\nOpacity=1\n")
            for key in ("Background", "BackgroundIntense", "BackgroundFaint"):
                handle.write(f"[{key}]\nColor={b[0]},{b[1]},{b[2]}\n")
            for key in ("Foreground", "ForegroundIntense", "ForegroundFaint"):
                handle.write(f"[{key}]\nColor={f[0]},{f[1]},{f[2]}\n")
        with open(os.path.join(data, "otm.profile"), "w") as handle:
            handle.write(f"""[Appearance]
ColorScheme=otm
Font=DejaVu Sans Mono,10,-1,5,50,0,0,0,0,0
[General]
Name=otm
Parent=FALLBACK/
TerminalColumns={cols}
TerminalRows={rows}
TerminalMargin=0
[Scrolling]
ScrollBarPosition=2
[Cursor Options]
CursorShape=0
""")
        with open(os.path.join(home, ".config", "konsolerc"), "w") as handle:
            handle.write("[Desktop Entry]\nDefaultProfile=otm.profile\n\n[KonsoleWindow]\nShowMenuBarByDefault=false\n"
                         "RememberWindowSize=false\n\n[MainWindow][Toolbar mainToolBar]\nHidden=true\n\n"
                         "[MainWindow][Toolbar sessionToolbar]\nHidden=true\n\n[TabBar]\nTabBarVisibility=AlwaysHideTabBar\n")
        argv = ["konsole", "--profile", "otm", "--nofork", "--hide-menubar", "--hide-tabbar", "-p", f"tabtitle={title}",
                "-e", *shell]
        return argv, {"QT_QPA_PLATFORM": "xcb"}, "konsole (Kitty graphics and Sixel)"
    raise ValueError(f"unknown terminal {name}")


# Every terminal's window is exposed (xrefresh) before the screenshots of each step, as when
# another window moves off it: xterm then draws again whatever Sixel pixels it still keeps under
# text (an overlay's blank cells showed the map until the app cleared the screen for it:
# Docs/Terminals.md). kitty 0.26.5 under Xvfb does not always draw a change until it is exposed
# (`--control kitty-holes`), so it is exposed before every screenshot; xterm not: it draws its
# stored pictures again on each expose, at times for longer than a steady interval, and exposed
# before every screenshot it never looked the same twice.
EXPOSED_EACH_GRAB = {"kitty"}

# Terminals slow to take in a frame: kitty on softpipe reads the app's output at once (the pty is
# empty) but can spend over a second decoding a picture before it draws what came after.
STEADY = {"kitty": 1.5}

# Terminals run at another size than --cols x --rows: kitty on softpipe draws a 1280x816 window
# too slowly to answer the app's graphics query in time (KITTY_GL).
GEOMETRY = {"kitty": (100, 32)}


def geometry_of(terminal, args):
    """(columns, rows) the terminal starts with: --cols x --rows, or its own (GEOMETRY) when
    those are the defaults."""
    if (args.cols, args.rows) == (160, 48):
        return GEOMETRY.get(terminal, (args.cols, args.rows))
    return args.cols, args.rows


TERMINAL_BINARY = {"xterm": "xterm", "xterm-biggraphics": "xterm", "xterm-fixed": "xterm", "kitty": "kitty", "mlterm": "mlterm",
                   "alacritty": "alacritty", "konsole": "konsole"}
# What the map should be in each: a picture (the protocol the app should find) or Braille.
EXPECTED = {"xterm": "sixel", "xterm-biggraphics": "sixel", "xterm-fixed": "sixel", "kitty": "kitty", "mlterm": "sixel",
            "konsole": "picture", "alacritty": "braille"}
DEFAULT_TERMINALS = ["xterm", "kitty", "mlterm", "konsole", "alacritty", "xterm-biggraphics"]


def version_of(name):
    binary = TERMINAL_BINARY[name]
    if not shutil.which(binary):
        return None
    flag = {"xterm": "-version", "mlterm": "--version"}.get(binary, "--version")
    try:
        out = run([binary, flag], timeout=20, env=dict(os.environ, DISPLAY="", QT_QPA_PLATFORM="offscreen"))
        text = (out.stdout + out.stderr).decode(errors="replace").strip().splitlines()
        return next((line.strip() for line in text if re.search(r"\d", line)), text[0] if text else binary)
    except Exception as error:  # a version is a nicety
        return f"{binary} (version unknown: {error})"


# MARK: - The app's side: its home, its shell, its trace

class AppHome:
    """A fresh HOME and XDG folders, an rc file for an interactive bash with `otm` (the app,
    then `[exit N]`), and the app's frame trace (ONTHEMAP_TRACE)."""

    def __init__(self, work, app, app_args, term_env=None):
        self.root = tempfile.mkdtemp(prefix="home-", dir=work)
        self.app = os.path.realpath(app)
        self.trace = os.path.join(self.root, "trace.log")
        self.rc = os.path.join(self.root, "rc.sh")
        quoted = " ".join("'" + a.replace("'", "'\\''") + "'" for a in [app, *app_args])
        with open(self.rc, "w") as handle:
            handle.write(f"""PS1='$ '
unset PROMPT_COMMAND HISTFILE
export HOME='{self.root}' XDG_CONFIG_HOME='{self.root}/config' XDG_DATA_HOME='{self.root}/data'
export XDG_CACHE_HOME='{self.root}/cache' XDG_STATE_HOME='{self.root}/state' LANG=C.UTF-8 LC_ALL=C.UTF-8
export ONTHEMAP_TRACE='{self.trace}' BROWSER=true
unset ONTHEMAP_SERVER NO_COLOR TMUX STY
otm() {{ {quoted} "$@"; echo "[exit $?]"; }}
""")
        for folder in ("config", "data", "cache", "state", "runtime"):
            os.makedirs(os.path.join(self.root, folder), exist_ok=True)
        os.chmod(os.path.join(self.root, "runtime"), 0o700)

    def shell(self):
        return ["bash", "--noprofile", "--rcfile", self.rc, "-i"]

    def frames(self):
        """[(line number, size (w, h), screen)] of the trace's frame lines so far; the screen is the
        rest of the line: its name and count, the map's view, and what is open over it (`over=…`)."""
        if not os.path.exists(self.trace):
            return []
        found = []
        with open(self.trace) as handle:
            for number, line in enumerate(handle):
                match = re.match(r"\d+ frame [\d.]+ (\d+)x(\d+) (.+)", line.rstrip("\n"))
                if match:
                    found.append((number, (int(match.group(1)), int(match.group(2))), match.group(3)))
        return found

    def graphics_reason(self):
        if not os.path.exists(self.trace):
            return None
        with open(self.trace) as handle:
            for line in handle:
                if " graphics " in line:
                    return line.split(" graphics ", 1)[1].strip()
        return None


class StepFailure(Exception):
    """The step could not go on (a wait timed out): the run stops here."""


class Driver:
    """Keys to the app and a look at the screen; a terminal under X or the tmux twin."""

    def __init__(self, home):
        self.home = home

    def app_pid(self):
        if getattr(self, "pid", None) is None or process_state(self.pid) is None:
            self.pid = app_process(self.home.app, self.home.trace)
        return self.pid

    def app_state(self):
        pid = self.app_pid()
        return process_state(pid) if pid else None

    def wait_stopped(self, timeout=5):
        """Until the app's process is stopped (T), or `timeout`: Ctrl-Z has no frame to wait for."""
        deadline = time.time() + timeout
        while time.time() < deadline and self.app_state() != "T":
            time.sleep(0.1)

    def wait_exited(self, timeout=15):
        pid = self.app_pid()
        deadline = time.time() + timeout
        while pid and time.time() < deadline and process_state(pid) not in (None, "Z"):
            time.sleep(0.1)

    def mark(self):
        frames = self.home.frames()
        return frames[-1][0] if frames else -1

    def wait_frame(self, after, predicate=lambda size, screen: True, timeout=30, what="a frame"):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for number, size, screen in self.home.frames():
                if number > after and predicate(size, screen):
                    return size, screen
            time.sleep(0.1)
        frames = self.home.frames()
        raise StepFailure(f"timed out after {timeout} s waiting for {what} (last frame: {frames[-1][1:] if frames else 'none'})")


TMUX_KEYS = {"Return": "Enter", "Escape": "Escape", "Tab": "Tab", "ctrl+z": "C-z", "ctrl+c": "C-c", "plus": "+",
             "question": "?", "colon": ":"}


class TmuxDriver(Driver):
    """The twin: the same app and keys inside tmux, whose capture-pane is the reference text."""

    def __init__(self, home, cols, rows):
        super().__init__(home)
        self.socket = f"otm-real-{os.getpid()}-{cols}x{rows}"
        self.session = "twin"
        env = dict(os.environ)
        env.pop("TMUX", None)
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", self.session,
                        "-x", str(cols), "-y", str(rows), *home.shell()], check=True, env=env)
        self.tmux("set-option", "-t", self.session, "default-terminal", "tmux-256color")

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True)

    def type(self, text):
        self.tmux("send-keys", "-t", self.session, "-l", text)

    def key(self, *names):
        for name in names:
            self.tmux("send-keys", "-t", self.session, TMUX_KEYS.get(name, name))

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", self.session).stdout.split("\n")

    def resize(self, cols, rows):
        self.tmux("resize-window", "-t", self.session, "-x", str(cols), "-y", str(rows))

    def wait_text(self, needle, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(needle in line for line in self.screen()):
                return
            time.sleep(0.1)
        raise StepFailure(f"twin: timed out waiting for {needle!r}")

    def settle(self, seconds=0.6):
        """The pane once it stayed the same for `seconds`."""
        last, since = None, time.time()
        deadline = time.time() + 10
        while time.time() < deadline:
            now = self.screen()
            if now != last:
                last, since = now, time.time()
            elif time.time() - since >= seconds:
                break
            time.sleep(0.1)
        return last

    def close(self):
        socket = self.tmux("display-message", "-p", "#{socket_path}").stdout.strip()
        self.tmux("kill-server")
        if socket and os.path.basename(socket) == self.socket:
            try:
                os.unlink(socket)  # tmux leaves it behind
            except OSError:
                pass


class XDriver(Driver):
    """A terminal window under Xvfb: xdotool types into it (focused), xwd reads it."""

    def __init__(self, home, display, window, grid):
        super().__init__(home)
        self.display, self.window, self.grid = display, window, grid

    def focus(self):
        xdo(self.display, "windowfocus", str(self.window))

    def type(self, text):
        self.focus()
        xdo(self.display, "type", "--delay", "40", text)

    def key(self, *names):
        self.focus()
        for name in names:
            xdo(self.display, "key", name)

    def geometry(self):
        return window_geometry(self.display, self.window)

    def grab(self):
        return grab(self.display, self.geometry())

    def unread_output(self):
        """Bytes the app wrote that the terminal has not read yet (TIOCOUTQ on the app's tty),
        or 0 when the app is not running: a big Sixel picture can take a terminal seconds to
        read, and two equal screenshots meanwhile would show the screen without it."""
        pid = self.app_pid()
        if not pid:
            return 0
        try:
            descriptor = os.open(f"/proc/{pid}/fd/1", os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return 0
        try:
            return struct.unpack("i", fcntl.ioctl(descriptor, termios.TIOCOUTQ, b"\0\0\0\0"))[0]
        except OSError:
            return 0
        finally:
            os.close(descriptor)

    exposes_each_grab = False  # else once a settle, before its first screenshot
    steady = 0.35  # seconds two equal screenshots must lie apart

    def expose(self):
        """Makes the X server tell every window it must be drawn again (xrefresh), as a window
        manager does when a window above it goes."""
        run(["xrefresh", "-display", self.display], timeout=10)

    def settle(self, seconds=None, timeout=20):
        """A screenshot once the terminal has read all the app wrote and two screenshots taken
        `seconds` apart are the same (the terminal has drawn)."""
        seconds = seconds or self.steady
        deadline = time.time() + timeout
        while self.unread_output() > 0 and time.time() < deadline:
            time.sleep(0.1)
        self.expose()
        last = self.grab()
        while time.time() < deadline:
            time.sleep(seconds)
            if self.exposes_each_grab:
                self.expose()
            now = self.grab()
            if now.digest() == last.digest() and self.unread_output() == 0:
                return now
            last = now
        return last  # still changing (an animation): the latest

    def resize_cells(self, cols, rows):
        """The window resized as a window manager would, to `cols` x `rows` cells."""
        grid = self.grid()
        x, y, w, h = self.geometry()
        new_w = w + round((cols - grid.cols) * grid.cell_w)
        new_h = h + round((rows - grid.rows) * grid.cell_h)
        xdo(self.display, "windowsize", str(self.window), str(new_w), str(new_h))


# MARK: - What the twin's text says

BOX = re.compile(r"┌─ (.+?) ─")


def find_box(lines, title):
    """(col, row, w, h) of the box whose top border carries `title`, in the twin's text."""
    for row, line in enumerate(lines):
        for match in BOX.finditer(line):
            if match.group(1).strip() != title:
                continue
            col = match.start()
            right = line.find("┐", col)
            bottom = next((r for r in range(row + 1, len(lines)) if col < len(lines[r]) and lines[r][col] == "└"), None)
            if right > col and bottom is not None:
                return col, row, right - col + 1, bottom - row + 1
    return None


def words(text):
    text = text.replace("×", "x").replace("’", "'")
    return [w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'.,-]*[A-Za-z0-9]|[A-Za-z0-9]", text)]


def word_match(meant, read):
    """The share of the meant words (2 letters or more) that tesseract read, and the ones it missed."""
    wanted = [w.strip(".,") for w in words(meant) if len(w.strip(".,")) >= 2]
    got = set(w.strip(".,") for w in words(read))
    # Two words one space apart are read as one now and then ("go to" as "goto"): both count.
    joined = {i for pair in zip(range(len(wanted)), range(1, len(wanted))) if wanted[pair[0]] + wanted[pair[1]] in got
              for i in pair}
    missed = [w for i, w in enumerate(wanted) if i not in joined and w not in got
              and not any(difflib.SequenceMatcher(None, w, g).ratio() >= 0.8 for g in got)]
    return (1 - len(missed) / len(wanted)) if wanted else 1.0, missed


def footer_keys(line):
    """The footer's key hints: its left part (the right part is the status: the count of
    locations, an age and the server's port, which differ between runs)."""
    line = line.strip()
    cut = re.search(r"\s*(?:…\s*)?\d+ locations", line)
    return (line[:cut.start()] if cut else re.split(r"\s{3,}", line)[0]).rstrip(" …")


# MARK: - The steps

STEPS = [
    "01-login", "02-map", "03-zoom-pan", "04-help", "05-goto", "06-table", "07-cards", "08-post-form",
    "09-post-preview", "10-posted", "11-yn-dialog", "12-resize", "13-suspended", "14-resumed", "15-quit",
]
RESIZED = (120, 36)


def drive(driver, step, shoot, cols, rows):
    """Takes the app through `step` (the same for the twin and a terminal); `shoot()` then looks.
    Each key or group of keys waits for the frame the app draws after it (its trace), so that an
    Esc is never read together with the next key as Alt-key (ncurses' ESCDELAY)."""
    def press(*keys, text=None, predicate=lambda size, screen: True, timeout=30, what=None):
        mark = driver.mark()
        if text is not None:
            driver.type(text)
        if keys:
            driver.key(*keys)
        return driver.wait_frame(mark, predicate, timeout, what or f"a frame after {text or ''}{' '.join(keys)}")

    def over(name):
        """A frame with `name` open over the screen (the app's trace says what is)."""
        return lambda size, screen: re.search(rf" over=(\S+,)?{name}(,|$)", screen) is not None

    def bare(pane):
        """A frame of `pane` with nothing open over it."""
        return lambda size, screen: screen.startswith(pane + ":") and " over=" not in screen

    if step == "01-login":
        # The command typed, drawn, and only then Enter: a person does not start the app while
        # the terminal is still drawing what they typed (kitty on softpipe would answer the
        # app's graphics query late).
        driver.type("otm")
        driver.settle()
        press("Return", predicate=lambda size, screen: screen.startswith("login:providers"), timeout=60,
              what="the login screen")
    elif step == "02-map":
        driver.type(EMAIL)
        driver.key("Tab")
        driver.type(PASSWORD)
        press("Return", predicate=lambda size, screen: re.match(r"map:[1-9]", screen) is not None, timeout=60,
              what="the map with the class")
    elif step == "03-zoom-pan":
        for key in ("plus", "plus", "l", "l"):
            press(key)
    elif step == "04-help":
        press("question", predicate=over("help"), what="the help")
    elif step == "05-goto":
        press("Escape", predicate=bare("map"), what="the help closed")
        press("colon", predicate=over("goto"), what="the Go to prompt")
        press(text="Lis")
    elif step == "06-table":
        press("Escape", predicate=bare("map"), what="the prompt closed")
        press(text="2", predicate=bare("table"), what="the Table")
    elif step == "07-cards":
        press(text="3", predicate=bare("cards"), what="the Cards")
    elif step == "08-post-form":
        press(text="1", predicate=bare("map"), what="the Map")
        press(text="p", predicate=over("posting"), what="the posting form")
    elif step == "09-post-preview":
        driver.type("Mountain View")
        press("Return")
        driver.type("github.com/real-terminals")
        press("Return", predicate=over("posting-preview"), what="the preview")
    elif step == "10-posted":
        press("Return", predicate=bare("map"), what="the map after posting")
    elif step == "11-yn-dialog":
        press(text="D", predicate=over("question"), what="the delete question")
    elif step == "12-resize":
        press(text="n", predicate=bare("map"), what="the question closed")
        mark = driver.mark()
        driver.resize_cells(*RESIZED)
        driver.wait_frame(mark, lambda size, screen: size != (cols, rows) and screen.startswith("map:"), 30,
                          "a frame at the new size")
    elif step == "13-suspended":
        driver.key("ctrl+z")
        driver.wait_stopped()
    elif step == "14-resumed":
        if driver.app_state() == "T":
            press("Return", text="fg", what="a frame after fg")
            driver.resumed = True
    elif step == "15-quit":
        driver.type("q")
        driver.wait_exited()
        if getattr(driver, "resumed", False):
            # bash gives up the rest of `otm` when its job stops (its "[exit 148]" was the stop),
            # so the app's own exit status is the one `fg` returned: asked for here.
            driver.type('echo "[exit $?]"')
            driver.key("Return")
    return shoot()


def app_process(app, trace):
    """The pid of the app run with this trace file (its environment names it), or None."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/exe") != app:
                continue
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if f"ONTHEMAP_TRACE={trace}".encode() in handle.read().split(b"\0"):
                    return int(entry)
        except OSError:
            continue
    return None


def process_state(pid):
    """R, S, T (stopped), … or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


class Twin:
    """The reference run in tmux; `screens[step]` is the pane's text after the step."""

    def __init__(self, work, app, app_args, cols, rows):
        self.home = AppHome(work, app, app_args)
        self.cols, self.rows = cols, rows
        self.screens, self.error = {}, None
        driver = TmuxDriver(self.home, cols, rows)
        driver.resize_cells = lambda c, r: driver.resize(c, r)
        waits = {"01-login": "Log In", "02-map": "pins here", "04-help": "Keys", "05-goto": "Lisbon",
                 "06-table": "Updated", "08-post-form": "Where are you studying", "09-post-preview": "[ Finish ]",
                 "10-posted": "pins here", "11-yn-dialog": "Delete your pin?", "12-resize": "pins here",
                 "13-suspended": "Stopped", "14-resumed": "pins here", "15-quit": "[exit"}
        self.notes = []
        try:
            for step in STEPS:
                def shoot():
                    if step in waits:
                        try:
                            driver.wait_text(waits[step], timeout=10 if step == "13-suspended" else 30)
                        except StepFailure as failure:
                            if step != "13-suspended":
                                raise
                            self.notes.append(f"{step}: {failure} (the app's state: {driver.app_state()})")
                    return driver.settle()
                self.screens[step] = drive(driver, step, shoot, cols, rows)
        except Exception as error:
            self.error = f"{type(error).__name__}: {error}"
        finally:
            driver.close()


# MARK: - One terminal on one background

class Result:
    def __init__(self, terminal, background):
        self.terminal, self.background = terminal, background
        self.status, self.reasons, self.steps, self.notes = "PASS", [], [], []
        self.seconds = 0.0

    def step(self, name, problems, seen, shot):
        now = time.time()
        seen = [f"{now - getattr(self, 'last_step', now):.1f} s since the step before"] + list(seen)
        self.last_step = now
        self.steps.append((name, problems, seen, shot))
        if problems:
            self.status = "FAIL"
            self.reasons += [f"{name}: {problem}" for problem in problems]

    def skip(self, reason):
        self.status, self.reasons = "SKIP", [reason]


class Session:
    """Starts the display and the terminal, drives the steps, checks each screenshot."""

    def __init__(self, args, terminal, background, twins, work):
        self.args, self.terminal, self.background = args, terminal, background
        self.cols, self.rows = geometry_of(terminal, args)
        self.twin_run = twins.get((self.cols, self.rows))  # a Future: the twin runs beside the terminals
        self.bg, self.fg = (rgb(c) for c in BACKGROUNDS[background])
        self.work = tempfile.mkdtemp(prefix=f"{terminal}-{background}-", dir=work)
        self.result = Result(terminal, background)
        self.grid = None
        theme = "light" if re.search(r"--theme[= ]light", " ".join(args.app_arg)) else "dark"
        # The map's colours: the theme's sea and land until the map is seen (take_map_colours).
        self.map_colours = [THEME_SEA[theme], THEME_LAND[theme]]
        self.theme_seen = None
        self.fault_bg = None  # the colour a terminal draws its default background with, when wrong
        self.flags = set()
        self.display = self.process = None

    def shot_path(self, step, suffix=""):
        return os.path.join(self.args.shots, f"{self.terminal}-{self.background}-{step}{suffix}.png")

    def start(self):
        binary = TERMINAL_BINARY[self.terminal]
        if not shutil.which(binary):
            raise SkipTerminal(f"{binary} is not installed (apt-get install {binary})")
        self.home = AppHome(self.work, self.args.app, self.args.app_arg)
        try:
            self.display = Display(self.work)
        except RuntimeError as error:
            raise SkipTerminal(str(error))
        title = f"otm-{self.terminal}-{os.getpid()}"
        argv, extra, self.description = terminal_command(
            self.terminal, self.home.root, self.cols, self.rows, *BACKGROUNDS[self.background], title,
            self.home.shell())
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DISPLAY": self.display.name, "HOME": self.home.root,
               "XDG_CONFIG_HOME": os.path.join(self.home.root, ".config"),
               "XDG_DATA_HOME": os.path.join(self.home.root, ".local", "share"),
               "XDG_RUNTIME_DIR": os.path.join(self.home.root, "runtime"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "USER": os.environ.get("USER", "root"), **extra}
        failures = []
        # A GL terminal now and then fails its first start under Xvfb; xterm once exited 1 twice
        # on one display: each try after the first gets a new Xvfb.
        for attempt in (1, 2, 3):
            if attempt > 1:
                self.display.close()
                try:
                    self.display = Display(self.work)
                except RuntimeError as error:
                    failures.append(str(error))
                    break
                env["DISPLAY"] = self.display.name
            window, why = self.launch(argv, env, attempt)
            if window:
                break
            failures.append(why)
        if window is None:
            raise SkipTerminal(f"{self.terminal} cannot start here: " + "; then ".join(failures))
        self.driver = XDriver(self.home, self.display.name, window, lambda: self.grid)
        self.driver.exposes_each_grab = self.terminal in EXPOSED_EACH_GRAB
        self.driver.steady = STEADY.get(self.terminal, self.driver.steady)
        # The shell's first prompt drawn, and the terminal idle: a person starts the app after
        # that, and a terminal still drawing its first frames (kitty on softpipe) answers the
        # app's graphics query too late.
        self.driver.settle()

    def launch(self, argv, env, attempt):
        """Starts the terminal; (its window, None) or (None, why not)."""
        path = os.path.join(self.work, f"terminal-{attempt}.log")
        log = open(path, "w")
        if self.terminal in STEADY and os.geteuid() == 0:
            # Ahead of the other terminals for the CPU, as a person's terminal has the machine to
            # itself (its shell and the app inherit it).
            argv = ["nice", "-n", "-5", *argv]
        self.process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + self.args.start_timeout
        while time.time() < deadline and self.process.poll() is None:
            out = xdo(self.display.name, "search", "--onlyvisible", "--name", ".").stdout.decode().split()
            best = None
            for candidate in out:
                try:
                    geometry = window_geometry(self.display.name, candidate)
                except Exception:
                    continue
                if geometry[2] >= 200 and geometry[3] >= 100 and (best is None or geometry[2] * geometry[3] > best[0]):
                    best = (geometry[2] * geometry[3], candidate)
            if best:
                return best[1], None
            time.sleep(0.25)
        log.flush()
        said = [line for line in open(path, errors="replace").read().splitlines() if line.strip()]
        status = self.process.poll()
        if status is None:
            self.close_terminal()
        why = f"exited with status {status}" if status is not None else f"no window within {self.args.start_timeout:.0f} s"
        # The last lines: the first is often only xterm's warning that it runs as root.
        return None, why + (f" ({' | '.join(said[-3:])[:300]})" if said else "")

    def close_terminal(self):
        if self.process and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(5)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait()

    def close(self):
        self.close_terminal()
        if self.display:
            self.display.close()

    # The looks

    def wait_ocr(self, box_fn, needle, timeout=15, lines=1, scale=200):
        """Screenshots until tesseract reads `needle` in box_fn(shot) (pixels); (shot, text)."""
        deadline = time.time() + timeout
        shot = text = None
        while True:
            shot = self.driver.settle()
            save(shot, os.path.join(self.work, "poll.png"), self.work)
            text = ocr(shot, box_fn(shot), self.work, lines=lines, scale=scale)
            if needle.lower() in text.lower() or time.time() > deadline:
                return shot, text
            time.sleep(0.3)

    def area(self, shot, box):
        """(background share, foreground share, [(colour, share)] of the other colours, biggest first)."""
        counter = shot.counts(box, step=2)
        total = sum(counter.values()) or 1
        # The terminal's own colours are flat: a close tolerance keeps the light theme's sea
        # (250, 250, 246) from counting as a white background.
        bg = sum(n for c, n in counter.items() if near(c, self.bg, 3)) / total
        fg = sum(n for c, n in counter.items() if near(c, self.fg, 3)) / total
        others = [(c, n / total) for c, n in counter.most_common(12) if not near(c, self.bg, 3) and not near(c, self.fg, 3)]
        return bg, fg, others

    def map_box(self, cols, rows):
        # MainScreen.contentRect: rows 3 ..< rows-2; MapPane.mapRect: all but its last row (the legend).
        return self.grid.box(0, 3, cols, rows - 6)

    def app_draws_pictures(self):
        reason = self.home.graphics_reason() or ""
        return bool(reason) and not reason.endswith("Braille") and "Braille" not in reason.split(":")[-1]

    def classify(self, shot, box):
        """picture | blank (no picture where the app sent one: only the names are text) | braille | blank."""
        bg, fg, others = self.area(shot, box)
        if self.fault_bg:  # the terminal's own (wrong) background is not the map
            fault = sum(s for c, s in others if near(c, self.fault_bg, 10))
            others = [(c, s) for c, s in others if not near(c, self.fault_bg, 10)]
            bg += fault
        if bg < 0.35 and others and others[0][1] > 0.2:
            return "picture", bg, others
        if self.app_draws_pictures():
            return "blank (no picture; only the names, as text)", bg, others
        return ("braille" if 1 - bg - fg >= 0.015 else "blank"), bg, others

    def take_map_colours(self, kind, others):
        """The colours that mean "the map" in this run: the theme's sea and land as the app
        paints them (MapPixelPalette), the picture's two commonest colours as this terminal shows
        them, or the Braille map's commonest colour where the app draws no picture."""
        if kind == "picture":
            theme = "light" if near(others[0][0], THEME_SEA["light"], 8) else "dark"
            wanted = [THEME_SEA[theme], THEME_LAND[theme]]
            measured = [c for c, share in others[:2] if share > 0.03]
            self.map_colours = wanted + [c for c in measured if not any(near(c, w, 4) for w in wanted)]
            self.theme_seen = theme
        elif kind == "braille" and others and not self.map_colours:
            self.map_colours = [others[0][0]]

    def map_colours_in(self, shot, box):
        if not self.map_colours:
            return 0, 0.0
        return share_of(shot.counts(box), self.map_colours, tolerance=4)

    def check_clean(self, shot, box, what, problems, step, limit=0.002):
        hits, share = self.map_colours_in(shot, box)
        if share > limit:
            problems.append(f"map colour inside {what}: {hits} px ({share:.1%})")
            outline(shot, [box], self.shot_path(step, "-checked"))
        return share

    def until_right(self, shot, judge, timeout):
        """judge(shot) -> (right, result), on `shot` and then on new screenshots (the terminal may
        still be drawing) until it is right or `timeout` has passed; (last shot, its result, how
        many new screenshots were taken)."""
        deadline, taken = time.time() + timeout, 0
        while True:
            right, result = judge(shot)
            if right or time.time() > deadline:
                return shot, result, taken
            time.sleep(0.5)
            shot, taken = self.driver.settle(), taken + 1
            save(shot, os.path.join(self.work, "poll.png"), self.work)
            self.grid = find_grid(shot, self.grid.cols, self.grid.rows, self.bg) or self.grid

    def read_until(self, shot, meant, box_of, what, problems, seen, threshold=0.7, lines=1, timeout=12):
        """tesseract's reading of box_of(grid) compared with `meant`; while it falls short, a new
        screenshot (the terminal may still be drawing), until `timeout`. Returns the last shot."""
        def judge(shot):
            read = ocr(shot, box_of(self.grid), self.work, lines=lines)
            score, missed = word_match(meant, read)
            return score >= threshold, (read, score, missed)
        shot, (read, score, missed), _ = self.until_right(shot, judge, timeout)
        seen.append(f"{what}: read {' | '.join(read.splitlines())!r} (meant {meant!r}: {score:.0%} of its words)")
        if score < threshold:
            problems.append(f"{what} misread: {score:.0%} of the words; missed {missed[:6]}; read {read[:120]!r}")
        return shot

    def look(self, step, twin_screen, cols, rows):
        """Checks the settled screenshot after `step`; returns (problems, what was seen, shot)."""
        problems, seen = [], []
        if step == "01-login":
            shot, text = self.wait_ocr(lambda s: (0, 0, s.width, s.height), "Log In", lines=6)
            if "log in" not in text.lower():
                problems.append(f"no 'Log In' read on the login screen: {text[:160]!r}")
            seen.append("login screen read: " + " ".join(text.split())[:160])
            return problems, seen, shot
        if step in ("13-suspended", "15-quit"):
            state = self.driver.app_state()
            if step == "13-suspended":
                seen.append(f"the app's process state after Ctrl-Z: {state}")
                if state != "T":
                    self.flags.add("fg-skipped")
                    problems.append(f"Ctrl-Z did not stop the app (its process state is {state}, not T)")
            else:
                seen.append(f"the app's process after q: {'gone' if state in (None, 'Z') else state}")
                if state not in (None, "Z"):
                    problems.append(f"the app is still running after q (state {state})")
            # After a resumed stop the shell has said "[exit 148]" already: wait for the app's own.
            needle = "Stopped" if step == "13-suspended" else ("exit 0" if getattr(self.driver, "resumed", False) else "exit")
            # The shell's lines are at the top: the app's screen was the alternate one.
            top = self.grid.box(0, 0, self.grid.cols, 8) if self.grid else (0, 0, 10 ** 4, 160)
            shot, text = self.wait_ocr(lambda s: top, needle, lines=6, scale=300,
                                       timeout=15 if state in ("T", None, "Z") else 3)
            seen.append("shell read: " + " | ".join(text.split("\n"))[:200])
            if state in ("T", None, "Z") and needle.lower() not in text.lower():
                problems.append(f"the shell's {needle!r} not read: {text[:160]!r}")
            if step == "15-quit" and "exit 0" not in text:
                problems.append("the app's exit status is not 0 (or not read)")
            if state in ("T", None, "Z"):
                hits, share = self.map_colours_in(shot, (0, 0, shot.width, shot.height))
                seen.append(f"map colours left on screen: {hits} px ({share:.2%})")
                if share > 0.001:
                    problems.append(f"the map is left on the screen {'while suspended' if step == '13-suspended' else 'after quit'}:"
                                    f" {hits} px ({share:.1%}) of map colour")
                    outline(shot, [(0, 0, shot.width, shot.height)], self.shot_path(step, "-checked"))
            return problems, seen, shot
        if step == "14-resumed" and "fg-skipped" in self.flags:
            seen.append("the app was not stopped: fg not typed")
        shot = self.driver.settle()
        grid = find_grid(shot, cols, rows, self.bg)
        # Every step here ends on the app's screen, so look again until it is there: a busy
        # terminal can keep the last screen for seconds after reading the frame (kitty on
        # softpipe, beside the packaging test, still showed the shell 1.5 s after `fg`). And a
        # terminal's cells keep their size: a grid of another cell size was found on a screenshot
        # taken while the terminal still laid out a resize.
        deadline = time.time() + 20
        while time.time() < deadline and (grid is None or (self.grid is not None and (
                abs(grid.cell_w - self.grid.cell_w) >= 0.6 or abs(grid.cell_h - self.grid.cell_h) >= 1.5))):
            time.sleep(0.5)
            shot = self.driver.settle()
            grid = find_grid(shot, cols, rows, self.bg)
        save(shot, os.path.join(self.work, "latest.png"), self.work)
        if grid is None:
            problems.append("no footer bar found (reverse video on the last row): cannot place the cells")
            return problems, seen, shot
        self.grid = grid
        seen.append(repr(grid))
        lines = twin_screen or []
        # A cell the app leaves empty (the top bar, between [ Logout ] and the title) shows the
        # terminal's own background: a terminal that draws it otherwise is at fault, not the app.
        if step in ("02-map", "06-table", "12-resize") and (not lines or lines[0][12:22].strip() == ""):
            counter = shot.counts(grid.box(13, 0, 6, 1))
            drawn = counter.most_common(1)[0][0]
            if not near(drawn, self.bg, 10):
                self.fault_bg = drawn
                problems.append(f"the terminal draws its default background as {drawn}, not {self.bg} "
                                "(a fault of the terminal here, with or without the app: see --control)")
        if not lines:
            seen.append(f"no twin text at {cols}x{rows}: text checks and overlay boxes skipped")
        if step in ("02-map", "03-zoom-pan", "10-posted", "12-resize", "14-resumed"):
            if lines:
                legend = re.sub(r"^\s*new: .*? · ", "", lines[rows - 3]) if len(lines) > rows - 3 else ""
                shot = self.read_until(shot, legend, lambda g: g.box(0, rows - 3, cols, 1), "scale line", problems, seen)
                footer = footer_keys(lines[rows - 1])
                shot = self.read_until(shot, footer, lambda g: g.box(0, rows - 1, len(footer) + 2, 1), "footer",
                                       problems, seen, timeout=3)
            kind, bg, others = self.classify(shot, self.map_box(cols, rows))
            top = ", ".join(f"{c} {s:.0%}" for c, s in others[:3])
            seen.append(f"map area: {kind} (background {bg:.0%}; other colours {top})")
            self.take_map_colours(kind, others)
            if step == "02-map":
                seen.append(f"map colours for the other checks: {self.map_colours}")
            expected = EXPECTED[self.terminal]
            if expected == "braille" and kind != "braille":
                problems.append(f"map area is {kind}, expected Braille (this terminal shows no pictures)")
            elif expected != "braille" and kind != "picture":
                problems.append(f"map area is {kind}, expected a picture ({expected})")
        elif step in ("04-help", "05-goto", "08-post-form", "09-post-preview", "11-yn-dialog"):
            title = {"04-help": "Keys", "05-goto": "Go to", "08-post-form": "Post your location",
                     "09-post-preview": "Post your location", "11-yn-dialog": "Delete your pin?"}[step]
            found = find_box(lines, title) if lines else None
            if found is None:
                if lines:
                    problems.append(f"the twin drew no box titled {title!r}: cannot place the overlay")
                return problems, seen, shot
            col, row, w, h = found
            seen.append(f"overlay {title!r} at cells {found} (from the twin)")
            inside = grid.box(col + 1, row + 1, w - 2, h - 2)
            # PostingScreen: the preview's map is (inner.x, inner.y + 10, inner.width, 10) with
            # inner = the box less its frame and a margin of 2 columns.
            mini = (col + 2, row + 1 + 10, w - 4, max(0, h - 2 - 2 - 10))
            # Its text first: it waits for the terminal to have drawn it (kitty on softpipe, beside
            # the packaging test, showed the Map 3 s after the app drew the form over it, and the
            # form with 5 letters of the place typed 5 s after the preview).
            first = row + (2 if step == "05-goto" else 1)
            last = mini[1] if step == "09-post-preview" else row + h - 1
            meant = [m for m in (line[col + 1:col + w - 1].strip() for line in lines[first:last]) if m]
            what = {"04-help": "help text", "05-goto": "completions", "08-post-form": "the form's text",
                    "09-post-preview": "the form's text above the preview", "11-yn-dialog": "dialog text"}[step]
            shot = self.read_until(shot, " ".join(meant), lambda g: g.box(col + 1, first, w - 2, last - first),
                                   what, problems, seen, threshold=0.6, lines=max(2, len(meant)), timeout=20)

            def judge(shot):
                """The box's pixels: (clean, ([problems], share of map colour, [what was seen]))."""
                wrong, noted = [], []
                if step != "09-post-preview":
                    share = self.check_clean(shot, inside, f"the {title!r} box", wrong, step)
                    return not wrong, (wrong, share, noted)
                kind, _, _ = self.classify(shot, grid.box(*mini))
                noted.append(f"preview map at cells {mini}: {kind}")
                if EXPECTED[self.terminal] != "braille" and kind != "picture":
                    wrong.append(f"the preview's map is {kind}, expected a picture")
                above = grid.box(col + 1, row + 1, w - 2, mini[1] - row - 1)
                below = grid.box(col + 1, mini[1] + mini[3], w - 2, row + h - 1 - mini[1] - mini[3])
                share = max(self.check_clean(shot, above, "the form (above the preview)", wrong, step),
                            self.check_clean(shot, below, "the form (below the preview)", wrong, step))
                return not wrong, (wrong, share, noted)

            # A terminal that has drawn the text may still be drawing the pictures around it: the
            # box is judged again on new screenshots for 10 s (what stays wrong is what a person sees).
            began = time.time()
            shot, (wrong, share, noted), again = self.until_right(shot, judge, 10)
            if again:
                noted.append(f"judged on {again} more screenshot(s) ({time.time() - began:.1f} s)")
            problems += wrong
            seen += noted
            seen.append(f"map colour inside the box: {share:.2%}")
        elif step in ("06-table", "07-cards"):
            content = grid.box(0, 3, cols, rows - 5)
            share = self.check_clean(shot, content, "the " + ("Table" if step == "06-table" else "Cards") + " pane", problems, step)
            seen.append(f"map colour in the pane: {share:.2%}")
            if step == "06-table" and lines:
                self.check_table(shot, lines, cols, rows, problems, seen)
        return problems, seen, shot

    def check_table(self, shot, lines, cols, rows, problems, seen):
        """Each data row's name (the twin's, from column 2): read by tesseract, and its text far
        enough from its background (WCAG contrast ratio of the cell's two main colours >= 3)."""
        name_width = max(10, cols * 20 // 100)
        unreadable, misread, rows_seen, names = [], [], 0, []
        for row in range(4, rows - 2):
            if row >= len(lines):
                break
            name = lines[row][2:2 + name_width].strip()
            if not name:
                continue
            rows_seen += 1
            box = self.grid.box(2, row, min(name_width, len(name) + 1), 1)
            counter = shot.counts(box)
            background = counter.most_common(1)[0][0]
            ink = [(c, n) for c, n in counter.items() if abs(luminance(c) - luminance(background)) > 24]
            text = max(ink, key=lambda item: (abs(luminance(item[0]) - luminance(background)), item[1]))[0] if ink else None
            ratio = contrast_ratio(text, background) if text else 1.0
            if ratio < 3:
                unreadable.append(f"row {row} {name!r}: text {text} on {background} (contrast {ratio:.1f})")
            names.append((name, self.grid.box(2, row, name_width, 1)))
        # Read in one tesseract call; each name must be on a line read near its own place.
        read = ocr_rows(shot, [box for _, box in names], self.work)
        for index, (name, _) in enumerate(names):
            near_lines = read[max(0, index - 3):index + 4]
            if not any(word_match(name, line)[0] >= 0.5 for line in near_lines):
                misread.append(f"{name!r}→{read[index] if index < len(read) else ''!r}")
        seen.append(f"table: {rows_seen} rows; {len(unreadable)} with too little contrast; {len(misread)} names misread")
        if unreadable:
            problems.append(f"Table rows unreadable ({len(unreadable)} of {rows_seen}): " + "; ".join(unreadable[:3])
                            + (" …" if len(unreadable) > 3 else ""))
        if misread:
            problems.append(f"Table names misread ({len(misread)} of {rows_seen}): " + ", ".join(misread[:5]))

    def run(self):
        started = time.time()
        try:
            self.start()
            self.result.last_step = time.time()
        except SkipTerminal as skip:
            self.result.skip(str(skip))
            self.close()
            return self.result
        except Exception:
            self.result.step("start", ["harness error: " + traceback.format_exc().strip().splitlines()[-1]], [], None)
            traceback.print_exc()
            self.close()
            return self.result
        try:
            for step in STEPS:
                state = {}

                def shoot(step=step):
                    frames = self.home.frames()
                    cols, rows = frames[-1][1] if frames else (self.cols, self.rows)
                    # The same steps from the same size: its screen after this step.
                    twin = self.twin_run.result() if self.twin_run else None
                    state["look"] = self.look(step, twin.screens.get(step) if twin else None, cols, rows)
                    return state["look"]
                try:
                    drive(self.driver, step, shoot, self.cols, self.rows)
                    problems, seen, shot = state["look"]
                    for _ in range(2):
                        if step != "01-login" or problems or not self.answered_late():
                            break
                        # The terminal answered after the app's wait (3 s): a loaded machine (kitty on
                        # softpipe beside three other sessions), not what this row judges (the
                        # app's Braille then, and its dropping the late answer, have tests of
                        # their own). A person would start the app again; so does the harness.
                        self.result.notes.append("the terminal answered the graphics query late: the app started again")
                        self.start_app_again()
                        drive(self.driver, step, shoot, self.cols, self.rows)
                        problems, seen, shot = state["look"]
                except StepFailure as failure:
                    shot = self.driver.grab()
                    save(shot, self.shot_path(step), self.work)
                    self.result.step(step, [str(failure)], [], shot.png)
                    self.result.notes.append(f"stopped at {step}")
                    break
                save(shot, self.shot_path(step), self.work)
                self.result.step(step, problems, seen, shot.png)
                if step == "01-login":
                    reason = self.home.graphics_reason()
                    if reason:
                        self.result.notes.append(f"the app's graphics choice: {reason}")
        except Exception:
            self.result.step("harness", ["harness error: " + traceback.format_exc().strip().splitlines()[-1]], [], None)
            traceback.print_exc()
        finally:
            reason = self.home.graphics_reason()
            if reason and not any("graphics choice" in n for n in self.result.notes):
                self.result.notes.append(f"the app's graphics choice: {reason}")
            self.close()
            self.result.seconds = time.time() - started
        return self.result

    def answered_late(self):
        """Whether the app drew Braille because this terminal, which shows pictures, did not
        answer its graphics query in time."""
        reason = self.home.graphics_reason() or ""
        return EXPECTED[self.terminal] != "braille" and "did not answer the graphics query in time" in reason

    def start_app_again(self):
        """Quits the app at its login screen (Esc) and removes its trace, for 01-login again."""
        self.driver.key("Escape")
        self.driver.wait_exited()
        if self.driver.app_state() not in (None, "Z"):
            raise StepFailure("the app did not quit at its login screen on Esc")
        os.remove(self.home.trace)


class SkipTerminal(Exception):
    pass


# MARK: - A control without the app: kitty's own pictures with a transparent hole

CONTROL_SCRIPT = """import base64, sys, time
def send(path):
    data = base64.standard_b64encode(open(path, 'rb').read())
    chunks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    for i, chunk in enumerate(chunks):
        keys = 'a=T,f=100,i=7,p=1,q=2,C=1,z=-1,' if i == 0 else ''
        sys.stdout.buffer.write(b'\\x1b_G' + (keys + 'm=%d' % (i < len(chunks) - 1)).encode() + b';' + chunk + b'\\x1b\\\\')
    sys.stdout.flush()
sys.stdout.write(('' if 'cursor' in sys.argv else '\\x1b[?25l') + '\\x1b[2J'); sys.stdout.flush()
for item in sys.argv[2:]:
    if item == 'cursor':
        continue
    if item.startswith('text:'):
        sys.stdout.write('\\x1b[4;6H' + item[5:]); sys.stdout.flush()
        continue
    if item.startswith('sleep'):
        time.sleep(float(item[5:]))
    else:
        sys.stdout.write('\\x1b[1;1H'); send(item)
open(sys.argv[1], 'w').close()
time.sleep(120)
"""


def kitty_control(args, work):
    """kitty alone, no app: a 640x320 picture (the dark map's sea and land) with a transparent
    hole, sent by the Kitty protocol as the app sends its map (PNG, z=-1, one id). Variant
    `holed-first`: the holed picture alone. Variant `holed-after-opaque`: the same picture
    without the hole first, and 2 s later the holed one under the same id (what the app does
    when an overlay opens over its map), with the cursor hidden (as the app keeps it) and shown.
    In the hole, the terminal's background should show; kitty 0.26.5 here shows the earlier
    picture's pixels instead while the cursor is shown (stale pixels under transparency).
    Screenshots <shots>/control-kitty-<variant>.png."""
    picture = os.path.join(work, "control.png")
    holed = os.path.join(work, "control-holed.png")
    run([CONVERT, "-size", "640x320", "xc:#0e121a", "-fill", "#253e2d", "-draw", "rectangle 100,60 540,260", picture])
    run([CONVERT, picture, "-alpha", "set", "-region", "320x160+160+80", "-alpha", "transparent", holed])
    script = os.path.join(work, "control.py")
    with open(script, "w") as handle:
        handle.write(CONTROL_SCRIPT)
    verdicts, texts = [], {}
    for variant, items in (("holed-first", [holed]), ("holed-after-opaque", [picture, "sleep2", holed]),
                           ("holed-after-opaque-cursor-shown", ["cursor", picture, "sleep2", holed]),
                           ("white-background", [picture]),
                           ("text-once", [picture, "sleep1", "text:pins here 100 of 100"]),
                           ("text-rewritten", [picture, "text:0 of 0 pins here    ", "sleep1", "text:pins here 100 of 100"])):
        background = "#ffffff" if variant == "white-background" else "#000000"
        display = Display(work)
        flag = os.path.join(work, f"{variant}.done")
        env = {"PATH": os.environ["PATH"], "DISPLAY": display.name, "HOME": work, **KITTY_GL,
               "XDG_RUNTIME_DIR": work, "LANG": "C.UTF-8"}
        process = subprocess.Popen(
            ["kitty", "--config", "NONE", "-o", "initial_window_width=80c", "-o", "initial_window_height=24c",
             "-o", "window_padding_width=0", "-o", f"background={background}", "--title", "control", sys.executable, script,
             flag, *items], env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 30
            while not os.path.exists(flag) and time.time() < deadline:
                time.sleep(0.1)
            time.sleep(2)
            windows = xdo(display.name, "search", "--onlyvisible", "--name", "control").stdout.decode().split()
            shot = grab(display.name, window_geometry(display.name, windows[0]))
            path = os.path.join(args.shots, f"control-kitty-{variant}.png")
            save(shot, path, work)
            if variant == "white-background":
                # Beside the picture (640x320 at the top left) the terminal's white background.
                outside = shot.counts((660, 20, max(1, shot.width - 680), 300)).most_common(1)[0][0]
                inside = shot.pixel(300, 40)
                verdict = (f"beside the picture {outside} (white (255, 255, 255) expected), in it {inside} "
                           f"(the sea (14, 18, 26) expected)")
            elif variant.startswith("text-"):
                # Around the text (row 4, columns 6 on) over the picture: kept to compare the two.
                cells = shot.counts((20, 35, 400, 60))
                texts[variant] = cells
                verdict = "text written over the picture"
                if variant != "text-once" and "text-once" in texts:
                    differ = sum((texts["text-once"] - cells).values()) + sum((cells - texts["text-once"]).values())
                    verdict = ("the same as the text written once" if differ < 50 else
                               f"{differ} px differ from the text written once: the old text still shows (ghosting)")
            else:
                hits, share = share_of(shot.counts((164, 84, 312, 152)), [(14, 18, 26), (37, 62, 45)], 8)
                verdict = "the hole shows the terminal's background" if share < 0.01 else \
                    f"the hole shows picture pixels ({share:.0%}): stale pixels under transparency"
            verdicts.append((variant, verdict))
            print(f"control kitty {variant}: {verdict}; {path}")
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
            display.close()
    return verdicts


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("app", nargs="?", help="the onthemap binary")
    parser.add_argument("--terminals", default=",".join(DEFAULT_TERMINALS))
    parser.add_argument("--backgrounds", default="dark,light")
    parser.add_argument("--shots", default="/tmp/terminal-shots")
    parser.add_argument("--cols", type=int, default=160)
    parser.add_argument("--rows", type=int, default=48)
    parser.add_argument("--app-arg", action="append", default=[], help="an argument for the app (repeat)")
    parser.add_argument("--start-timeout", type=float, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--jobs", type=int, default=1,
                        help="terminals run at once, each on its own Xvfb (most of a run is waiting for frames)")
    parser.add_argument("--until", choices=STEPS, help="stop after this step (to look at one part)")
    parser.add_argument("--control", choices=["kitty-holes"],
                        help="a control without the app: kitty's own picture with a transparent hole")
    args = parser.parse_args()
    if args.until:
        del STEPS[STEPS.index(args.until) + 1:]
    os.makedirs(args.shots, exist_ok=True)
    work = tempfile.mkdtemp(prefix="otm-real-terminals-")
    if args.control:
        kitty_control(args, work)
        return 0
    if not args.app:
        parser.error("the app binary is needed")
    args.app = os.path.abspath(args.app)
    missing = [tool for tool in DEPENDENCIES if not shutil.which(tool)]
    if not shutil.which(CONVERT):
        missing.append("ImageMagick (convert-im6.q16)")
    terminals = [t for t in args.terminals.split(",") if t]
    backgrounds = [b for b in args.backgrounds.split(",") if b]
    results = []
    if not os.access(args.app, os.X_OK):  # the app missing is a failure, not a terminal that cannot start
        print(f"the app {args.app} is not executable")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    if missing:
        reason = f"missing: {', '.join(missing)}"
        for terminal in terminals:
            for background in backgrounds:
                result = Result(terminal, background)
                result.skip(reason)
                results.append(result)
    else:
        for terminal in terminals:
            print(f"# {terminal}: {version_of(terminal) or 'not installed'}", flush=True)
        def twin_at(geometry):
            twin = Twin(work, args.app, args.app_arg, *geometry)
            if twin.error:
                print(f"# the tmux twin at {geometry}: stopped: {twin.error} (checks that need its text fail)", flush=True)
            for note in twin.notes:
                print(f"# the tmux twin at {geometry}: {note}", flush=True)
            return twin
        geometries = sorted({geometry_of(terminal, args) for terminal in terminals})
        twin_pool = concurrent.futures.ThreadPoolExecutor(max_workers=len(geometries))
        twins = {geometry: twin_pool.submit(twin_at, geometry) for geometry in geometries}
        pairs = [(terminal, background) for terminal in terminals for background in backgrounds]
        # A slow terminal (kitty on softpipe) runs one at a time, in a lane of its own beside the
        # others: two at once drew so slowly that the app's graphics query went unanswered.
        slow = [pair for pair in pairs if pair[0] in STEADY]
        lanes = max(1, args.jobs - 1) if slow and len(slow) < len(pairs) else max(1, args.jobs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as slow_lane, \
                concurrent.futures.ThreadPoolExecutor(max_workers=lanes) as pool:
            running = {pair: (slow_lane if pair in slow else pool).submit(Session(args, *pair, twins, work).run)
                       for pair in pairs}
            for future in concurrent.futures.as_completed(running.values()):
                report(future.result())
            results = [running[pair].result() for pair in pairs]  # the summary in the matrix's order
    passed = sum(r.status == "PASS" for r in results)
    failed = sum(r.status == "FAIL" for r in results)
    skipped = sum(r.status == "SKIP" for r in results)
    print("\nSummary:")
    for result in results:
        reason = "" if result.status == "PASS" else f" ({'; '.join(result.reasons)[:400]})"
        print(f"  {result.terminal:10} {result.background:5} {result.status}{reason}")
    if args.keep or failed:
        print(f"work folder: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def report(result):
    print(f"\n== {result.terminal} on {result.background}: {result.status} ({result.seconds:.0f} s)", flush=True)
    for note in result.notes:
        print(f"   {note}")
    if result.status == "SKIP":
        print(f"   SKIP: {result.reasons[0]}")
    for name, problems, seen, shot in result.steps:
        print(f"   {name:16} {'FAIL' if problems else 'ok  '} {shot or ''}")
        for line in seen:
            print(f"      · {line}")
        for problem in problems:
            print(f"      ✗ {problem}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
