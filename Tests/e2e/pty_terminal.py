"""The app on a pseudo-terminal that answers like a terminal that shows pictures (Python's
standard library only): it answers the app's graphics query as kitty, foot or a terminal without
pictures would, and decodes what the app sends (Kitty's PNG payloads; PNG files)."""
import base64
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import threading
import time
import zlib

ANSWERS = {
    "kitty": b"\x1b_Gi=31;OK\x1b\\\x1b[?62;22c",  # kitty: the graphics query answered, then DA1
    "sixel": b"\x1b[?62;4;22c",  # foot: no Kitty answer, Sixel (4) in DA1
    "none": b"\x1b[?62;22c",  # a terminal without pictures
}

class PtyApp:
    """`argv` on a new pseudo-terminal of `cols` x `rows` cells of `cell` pixels, its controlling
    terminal; a reader thread keeps everything it writes and answers the graphics query once."""

    def __init__(self, argv, env, rows=40, cols=120, cell=(10, 20), answer="kitty"):
        self.master, slave = os.openpty()
        self.cell = cell
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * cell[0], rows * cell[1]))
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                                        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
        os.close(slave)
        self.output = bytearray()
        self.answer = answer
        self.answered = False
        self.lock = threading.Condition()
        # The reader runs until the app has exited and everything it wrote was read (EIO once
        # the last slave descriptor is closed): `exited` and `close` wait for it, so no byte is
        # looked for before it is read, and a closed master's descriptor number, which the next
        # PtyApp's openpty may get, is never read by this one's thread.
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if not ready:
                    continue
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data: return
            with self.lock:
                self.output += data
                if not self.answered and b"\x1b_Gi=31," in self.output and b"\x1b[c" in self.output:
                    self.answered = True
                    os.write(self.master, ANSWERS[self.answer])
                self.lock.notify_all()

    def send(self, text):
        os.write(self.master, text.encode())

    def resize(self, rows, cols):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, cols * self.cell[0], rows * self.cell[1]))
        self.process.send_signal(signal.SIGWINCH)

    def wait(self, predicate, timeout=30, what=""):
        """Waits until predicate(everything written so far) holds; returns that output."""
        deadline = time.time() + timeout
        with self.lock:
            while not predicate(bytes(self.output)):
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}; last output: {bytes(self.output[-600:])!r}")
                self.lock.wait(left)
            return bytes(self.output)

    def mark(self):
        """Where the output ends now (to look only at what comes after)."""
        with self.lock:
            return len(self.output)

    def exited(self, timeout=30):
        """The app's exit status once it has exited and all it wrote has been read."""
        status = self.process.wait(timeout=timeout)
        self.reader.join(timeout)
        assert not self.reader.is_alive(), "the app's output was not read to its end"
        return status

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.reader.join(30)
        os.close(self.master)


def sixel_images(output):
    """The Sixel pictures in output, in order."""
    return re.findall(rb"\x1bP[0-9;]*q.*?\x1b\\", output, re.S)


def kitty_images(output):
    """(the first chunk's keys, the PNG) of each Kitty picture (a=T) in output, in order."""
    images, current = [], None
    for match in re.finditer(rb"\x1b_G([^;\x1b]*);?([^\x1b]*)\x1b\\", output):
        keys, payload = match.group(1).decode(), match.group(2)
        if "a=T" in keys:
            current, first = payload, keys
        elif current is not None and keys.startswith("m="):
            current += payload
        else:
            continue
        if "m=0" in keys:
            images.append((first, base64.b64decode(current)))
            current = None
    return images


def png_pixels(data):
    """(width, height, rows of RGBA bytes) of a non-interlaced PNG: RGB or RGBA of 8 bits, or a
    palette of 1 to 8 bits with its transparency (what libpng writes for a map)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, palette, alpha = 8, b"", [], b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
            assert interlace == 0 and (color, depth) in [(2, 8), (6, 8), (3, 1), (3, 2), (3, 4), (3, 8)], (color, depth)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"tRNS":
            alpha = body
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    channels = {2: 3, 6: 4, 3: 1}[color]
    stride = (width * channels * depth + 7) // 8
    step = max(1, channels * depth // 8)  # the bytes a filter looks back
    raw, rows = zlib.decompress(idat), []
    previous = bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for x in range(stride):
            a = row[x - step] if x >= step else 0
            b, c = previous[x], previous[x - step] if x >= step else 0
            if kind == 1: row[x] = (row[x] + a) & 255
            elif kind == 2: row[x] = (row[x] + b) & 255
            elif kind == 3: row[x] = (row[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = row
        if color == 6:
            rows.append(row)
        elif color == 2:
            rows.append(bytearray(b"".join(bytes(row[x:x + 3]) + b"\xff" for x in range(0, stride, 3))))
        else:
            per_byte, mask = 8 // depth, (1 << depth) - 1
            pixels = bytearray()
            for x in range(width):
                index = (row[x // per_byte] >> (8 - depth * (x % per_byte + 1))) & mask
                pixels += bytes(palette[index]) + bytes([alpha[index] if index < len(alpha) else 255])
            rows.append(pixels)
    return width, height, rows


def colour_counts(rows):
    """How many opaque pixels of each (r, g, b) colour the rows hold."""
    counts = {}
    for row in rows:
        for x in range(0, len(row), 4):
            if row[x + 3] == 255:
                key = (row[x], row[x + 1], row[x + 2])
                counts[key] = counts.get(key, 0) + 1
    return counts
