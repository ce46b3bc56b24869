#!/usr/bin/env python3
"""LiveQuery figures for Benchmarks.md ("Live class map"), against the installed onthemap-server.

    python3 scripts/bench-live.py BIN_DIR [--subscribers 1000] [--posts 100] [--idle 10000]

1. Latency: SUBSCRIBERS sockets subscribe to every StudentLocation row; POSTS rows are posted one
   at a time (the next once every socket has its event). For each event: the time from the
   POST's 201 (read in full) to that socket reading the event, and from the POST being sent.
   An event can reach a socket before the 201 reaches the poster (the fan-out runs beside the
   answer): those count as 0 ms from the 201.
2. Memory: IDLE sockets connect and subscribe and then stay idle; the server's resident memory
   (VmRSS) before any socket and with all of them open.

Every client is in this one Python process. The subscribers are set up with asyncio; for the
latency run their sockets are then read by one epoll loop that stamps each event when the read
completing it returns, and parses the events' JSON only after each post's round. The figures
still include that loop's reading of SUBSCRIBERS sockets per event (on the same cores as the
server): an upper bound of the server's part. The server runs with --open-writes (the posts need
no session) and its socket limits raised to fit.
"""
import argparse
import asyncio
import base64
import json
import os
import resource
import selectors
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def frame(data, opcode=0x1):
    """A masked client frame: text unless another opcode is given."""
    mask = os.urandom(4)
    length = len(data)
    if length < 126:
        header = bytes([0x80 | opcode, 0x80 | length])
    elif length < 65536:
        header = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack(">H", length)
    else:
        header = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack(">Q", length)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))


def next_frame(buffer):
    """The first whole frame in `buffer` as (opcode, payload, the bytes after it), or None."""
    if len(buffer) < 2:
        return None
    length, offset = buffer[1] & 0x7F, 2
    if length == 126:
        length, offset = (struct.unpack(">H", buffer[2:4])[0], 4) if len(buffer) >= 4 else (None, 0)
    elif length == 127:
        length, offset = (struct.unpack(">Q", buffer[2:10])[0], 10) if len(buffer) >= 10 else (None, 0)
    if length is None or len(buffer) < offset + length:
        return None
    return buffer[0] & 0x0F, buffer[offset:offset + length], buffer[offset + length:]


def text_of(opcode, payload, send):
    """A server frame's text, or None for a control frame (a ping is answered through `send`)."""
    if opcode == 0x9:
        send(frame(payload, opcode=0xA))
    elif opcode == 0x8:
        raise ConnectionError("closed by the server")
    elif opcode == 0x1:
        return payload
    return None


async def upgrade(port, local="127.0.0.1"):
    """A WebSocket to the LiveQuery server on `port`, from the address `local`: (reader, writer)
    once its 101 came."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"no upgrade: {head[:80]!r}")
    return reader, writer


class Subscriber:
    """One LiveQuery socket that has subscribed to every row."""

    def __init__(self, reader, writer):
        self.reader, self.writer, self.pending = reader, writer, b""

    @classmethod
    async def open(cls, port):
        reader, writer = await upgrade(port)
        subscriber = cls(reader, writer)
        writer.write(frame(json.dumps({"op": "connect", "applicationId": "bench"}).encode()))
        await subscriber.expect("connected")
        writer.write(frame(json.dumps(
            {"op": "subscribe", "requestId": 1, "query": {"className": "StudentLocation", "where": {}}}).encode()))
        await subscriber.expect("subscribed")
        return subscriber

    async def message(self):
        """The next text message (pings are answered, other control frames skipped)."""
        while True:
            parsed = next_frame(self.pending)
            if parsed is None:
                data = await self.reader.read(1 << 16)
                if not data:
                    raise ConnectionError("closed by the server")
                self.pending += data
                continue
            opcode, payload, self.pending = parsed
            text = text_of(opcode, payload, self.writer.write)
            if text is not None:
                return json.loads(text)

    async def expect(self, op):
        message = await self.message()
        if message.get("op") != op:
            raise RuntimeError(f"expected {op}, got {message}")
        return message


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class FrameReader:
    """One subscriber's socket in the latency run, read without blocking: the bytes received so
    far and the text frames they complete, each with the time of the read that completed it."""

    def __init__(self, sock, pending):
        self.sock, self.buffer, self.frames = sock, pending, []

    def receive(self, now):
        data = self.sock.recv(1 << 16)
        if not data:
            raise ConnectionError("closed by the server")
        self.buffer += data
        while (parsed := next_frame(self.buffer)) is not None:
            opcode, payload, self.buffer = parsed
            text = text_of(opcode, payload, self.sock.sendall)
            if text is not None:
                self.frames.append((now, text))


async def subscribed_sockets(port, count):
    """COUNT subscribed sockets, opened with asyncio and then taken out of it as plain sockets,
    each with the bytes it had received after its `subscribed` (the server has nothing more to
    send them until an event)."""
    subscribers = []
    for start in range(0, count, 100):
        subscribers += await asyncio.gather(*(Subscriber.open(port) for _ in range(start, min(count, start + 100))))
    sockets = []
    for subscriber in subscribers:
        if subscriber.reader._buffer:  # nothing may be left unread in asyncio's buffer
            raise RuntimeError("bytes after subscribed")
        sock = socket.socket(fileno=os.dup(subscriber.writer.get_extra_info("socket").fileno()))
        sockets.append((sock, subscriber.pending))
        subscriber.writer.close()
    return sockets


def latency(port, subscribers, posts):
    """Each socket's own arrival time of each event: one epoll loop reads whichever sockets are
    ready and stamps a frame when the read that completes it returns; the events' JSON is parsed
    only after the post's round, so the figures hold the server's fan-out and this loop's reads,
    not a Python task and a JSON parse per socket."""
    sockets = asyncio.run(subscribed_sockets(port, subscribers))
    readers = []
    selector = selectors.DefaultSelector()
    for sock, pending in sockets:
        sock.setblocking(False)
        reader = FrameReader(sock, pending)
        readers.append(reader)
        selector.register(sock, selectors.EVENT_READ, reader)
    from_answer, from_sent = [], []
    for index in range(posts):
        body = json.dumps({"uniqueKey": f"bench{index}", "firstName": "Live", "lastName": f"Bench {index}",
                           "mapString": "Lisbon", "mediaURL": "https://example.com", "latitude": 38.72,
                           "longitude": -9.14}).encode()
        poster = socket.create_connection(("127.0.0.1", port))
        request = (f"POST /parse/classes/StudentLocation HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                   ).encode() + body
        sent = time.perf_counter()
        poster.sendall(request)
        poster.setblocking(False)
        selector.register(poster, selectors.EVENT_READ, None)
        answer, answered, waiting = b"", None, len(readers)
        deadline = sent + 30
        while answered is None or waiting:
            events = selector.select(timeout=max(0.0, deadline - time.perf_counter()))
            if not events:
                raise RuntimeError(f"post {index}: {waiting} sockets without their event after 30 s")
            now = time.perf_counter()
            for key, _ in events:
                if key.data is None:
                    data = poster.recv(1 << 16)
                    if data:
                        answer += data
                    else:
                        answered = now
                        selector.unregister(poster)
                        poster.close()
                else:
                    had = len(key.data.frames)
                    key.data.receive(now)
                    if had == 0 and key.data.frames:
                        waiting -= 1
        head, _, payload = answer.partition(b"\r\n\r\n")
        if b" 201 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"POST: {head[:80]!r}")
        object_id = json.loads(payload)["objectId"]
        for reader in readers:
            (arrived, event), = reader.frames
            message = json.loads(event)
            if message.get("op") != "create" or message["object"]["objectId"] != object_id:
                raise RuntimeError(f"not this post's create: {message}")
            from_answer.append(max(0.0, arrived - answered) * 1000)
            from_sent.append((arrived - sent) * 1000)
            reader.frames.clear()
    for reader in readers:
        reader.sock.close()
    return from_answer, from_sent


async def idle_memory(port, pid, count):
    sockets = []
    for start in range(0, count, 250):
        sockets += await asyncio.gather(*(Subscriber.open(port) for _ in range(start, min(count, start + 250))))
    await asyncio.sleep(1)  # let the server settle after the last subscribe (a reading, not a wait for an event)
    figure = rss_mb(pid)
    for subscriber in sockets:
        subscriber.writer.close()
    return figure


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--posts", type=int, default=100)
    parser.add_argument("--idle", type=int, default=10000)
    arguments = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    workdir = tempfile.mkdtemp(prefix="onthemap-bench-live.")
    port = free_port()
    room = str(arguments.idle + arguments.subscribers + 100)
    server = subprocess.Popen(
        [os.path.join(arguments.bin, "onthemap-server"), "serve", "--port", str(port),
         "--database", os.path.join(workdir, "live.sqlite"), "--open-writes", "--log-level", "warning",
         "--max-connections", room, "--live-max-connections", room, "--live-connections-per-address", room],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "server.log"), "w"))
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    sys.exit("bench-live: the server did not start (see " + workdir + "/server.log)")
                time.sleep(0.1)
        before = rss_mb(server.pid)
        from_answer, from_sent = latency(port, arguments.subscribers, arguments.posts)
        print(f"{arguments.subscribers} subscribers, {arguments.posts} posts, {len(from_answer)} events")
        print(f"  POST 201 -> event: p50 {statistics.median(from_answer):.1f} ms, "
              f"p99 {percentile(from_answer, 0.99):.1f} ms, max {max(from_answer):.1f} ms")
        print(f"  POST sent -> event: p50 {statistics.median(from_sent):.1f} ms, "
              f"p99 {percentile(from_sent, 0.99):.1f} ms")
        idle = asyncio.run(idle_memory(port, server.pid, arguments.idle))
        print(f"server resident memory: {before:.1f} MB at start, {idle:.1f} MB with {arguments.idle} idle subscribers")
        if server.poll() is not None:
            sys.exit("bench-live: the server died")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
