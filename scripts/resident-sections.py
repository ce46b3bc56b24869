#!/usr/bin/env python3
"""Which sections and symbols of an executable a running process holds resident.

Usage: scripts/resident-sections.py PID [--symbols N]   (needs read access to /proc/PID/pagemap)

For every page of the process's mappings of its own executable, /proc/PID/pagemap says whether
it is present (bit 63); the mapping's file offset places the page in an ELF section (`readelf -S`)
and, with `nm`, in a symbol. Prints resident kB per section and the N symbols with the most
resident kB (default 25). A page is counted once, for the section (and symbol) holding most of it.
"""
import os
import re
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")


def mappings(pid, path):
    """(start, end, file offset) of the process's mappings of `path`."""
    result = []
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and fields[5] == path:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                result.append((start, end, int(fields[2], 16)))
    return result


def resident_pages(pid, ranges):
    """File offsets (page-aligned) of the present pages in `ranges`."""
    offsets = []
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for start, end, offset in ranges:
            pages = (end - start) // PAGE
            pagemap.seek(start // PAGE * 8)
            data = pagemap.read(pages * 8)
            for index in range(pages):
                (entry,) = struct.unpack_from("<Q", data, index * 8)
                if entry >> 63 & 1 or entry >> 62 & 1:
                    offsets.append(offset + index * PAGE)
    return offsets


def sections(binary):
    """(file offset, size, name, address) of allocated sections with file contents."""
    output = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    result = []
    for line in output.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if not match or match.group(2) == "NOBITS" or "A" not in match.group(6):
            continue
        name, address, offset, size = match.group(1), int(match.group(3), 16), int(match.group(4), 16), int(match.group(5), 16)
        if size:
            result.append((offset, size, name, address))
    return sorted(result)


def symbols(binary, section_list):
    """Sorted (file offset, size, name) of sized symbols, from their addresses."""
    output = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout
    result = []
    for line in output.splitlines():
        fields = line.split(None, 3)
        if len(fields) != 4:
            continue
        address, size, name = int(fields[0], 16), int(fields[1], 16), fields[3]
        for offset, length, _, start in section_list:
            if start <= address < start + length:
                result.append((offset + address - start, size, name))
                break
    result.sort()
    return result


def text_literals(binary, section_list, minimum=16 * 1024):
    """(file offset, size, name) of long runs of text in .rodata: the generated tables and
    Base64 blobs (StaticString literals, which have no symbol), named by their first bytes."""
    result = []
    with open(binary, "rb") as handle:
        for offset, size, name, _ in section_list:
            if name != ".rodata":
                continue
            handle.seek(offset)
            data = handle.read(size)
            for match in re.finditer(rb"[\t\n\x20-\x7e\x80-\xff]{%d,}" % minimum, data):
                head = match.group(0)[:24].decode("utf-8", "replace").replace("\t", " ").replace("\n", " ")
                result.append((offset + match.start(), match.end() - match.start(), f"(text {len(match.group(0)) // 1024} kB: {head!r})"))
    return result


def module_of(symbol):
    """A symbol's library or Swift module, as far as its name tells."""
    swift = re.match(r"^\$s(?:s|So|SC)?(\d+)([A-Za-z_][A-Za-z0-9_]*)", symbol)
    if symbol.startswith("$ss") or symbol.startswith("$sS") or symbol.startswith("_swift_stdlib") or symbol.startswith("swift_"):
        return "Swift runtime and standard library"
    if swift:
        length = int(swift.group(1))
        return swift.group(2)[:length]
    if "icu_" in symbol or symbol.startswith("swift_u") or symbol.startswith("icudt"):
        return "ICU (_FoundationICU)"
    if symbol.startswith("_ZN5swift"):
        return "Swift runtime and standard library"
    if symbol.startswith("_ZL"):
        return "C++ file statics (ICU, the Swift runtime)"
    if symbol.startswith("_dispatch") or symbol.startswith("dispatch_"):
        return "libdispatch"
    if symbol.startswith("_CF") or symbol.startswith("CF") or symbol.startswith("__CF"):
        return "CoreFoundation"
    if symbol.startswith("("):
        return symbol
    return "C and other"


def overlap(a_start, a_end, b_start, b_end):
    return max(0, min(a_end, b_end) - max(a_start, b_start))


def main():
    pid = int(sys.argv[1])
    top = int(sys.argv[sys.argv.index("--symbols") + 1]) if "--symbols" in sys.argv else 25
    binary = os.readlink(f"/proc/{pid}/exe")
    section_list = sections(binary)
    pages = resident_pages(pid, mappings(pid, binary))
    symbol_list = sorted(symbols(binary, section_list) + text_literals(binary, section_list))
    resident = set(pages)
    on_page = {}  # page -> {symbol: bytes of it on the page}
    for offset, size, symbol in symbol_list:
        first = offset // PAGE * PAGE
        for page in range(first, offset + max(size, 1), PAGE):
            if page in resident:
                bytes_in = overlap(page, page + PAGE, offset, offset + size)
                if bytes_in:
                    on_page.setdefault(page, {})[symbol] = bytes_in
    by_section, by_symbol = {}, {}
    for page in pages:
        end = page + PAGE
        best = max(section_list, key=lambda s: overlap(page, end, s[0], s[0] + s[1]), default=None)
        name = best[2] if best and overlap(page, end, best[0], best[0] + best[1]) else "(headers, padding)"
        by_section[name] = by_section.get(name, 0) + PAGE
        covered = on_page.get(page, {})
        total = sum(covered.values())
        if total == 0:
            key = f"(no symbol, in {name})"
            by_symbol[key] = by_symbol.get(key, 0) + PAGE
        for symbol, bytes_in in covered.items():
            by_symbol[symbol] = by_symbol.get(symbol, 0) + PAGE * bytes_in / total
    print(f"{binary}: {len(pages) * PAGE / 1024:.0f} kB resident")
    for name, size in sorted(by_section.items(), key=lambda item: -item[1]):
        print(f"  {size / 1024:8.0f} kB  {name}")
    by_module = {}
    for symbol, size in by_symbol.items():
        module = module_of(symbol)
        by_module[module] = by_module.get(module, 0) + size
    print("by module (from symbol names; kB):")
    for name, size in sorted(by_module.items(), key=lambda item: -item[1])[:top]:
        if size >= 64 * 1024:
            print(f"  {size / 1024:8.0f} kB  {name[:100]}")
    print(f"largest resident symbols (kB, a page shared by the symbols on it):")
    for name, size in sorted(by_symbol.items(), key=lambda item: -item[1])[:top]:
        print(f"  {size / 1024:8.0f} kB  {name[:140]}")


if __name__ == "__main__":
    main()
