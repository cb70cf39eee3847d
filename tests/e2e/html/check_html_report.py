#!/usr/bin/python3
"""Renders report.html from each fixture report.json and checks it in headless Chromium.

A screenshot must decode and show the report's charts in their colours (so the inline SVG and
CSS really render, offline); the DOM Chromium builds must hold C++ template names as text, never
as elements; and, laid out by Chromium, the first finding (cause, place, gain, action) must come
before the runs table with the source line it names inside its own box. A region with CPU-time
samples (docs/sampling.md) gets its flame graph laid out across the page, a bar per frame, and its
table of lines. Standard library only: the PNG is decoded with zlib and struct.

Exit status: 0 passed, 1 a check failed, 77 no Chromium here (CTest's SKIP_RETURN_CODE).
"""
import argparse
import collections
import html.parser
import itertools
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

TEMPLATE_FIXTURE = "scale_template_oversubscribed.json"
# Tables and legends show a C++ function without its parameters; the signature is on hover.
TEMPLATE_NAME = "void solve<std::vector<int>>"
TEMPLATE_SIGNATURE = "void solve&lt;std::vector&lt;int&gt;&gt;(int)"
# Colours the report draws in the top 2000 pixels of this fixture, as RGB: if one is missing,
# that part of the page did not render.
TEMPLATE_FIXTURE_COLOURS = {
    "load imbalance bars": (0xE1, 0x57, 0x59),
    "lock contention bars": (0xB0, 0x7A, 0xA1),
    "first region's lines": (0x00, 0x72, 0xB2),
    "failed run's highlight": (0xFD, 0xE7, 0xEA),
    "oversubscribed badges": (0xFF, 0xF1, 0xD6),
}
# A report of the demo (scripts/demo.sh): its first finding names the loop's line and shows it.
FINDINGS_FIXTURE = "imbalanced_loop_demo.json"
FINDINGS_SOURCE_LINE = "#pragma omp parallel for schedule(static)"
# Appended to a copy of the page: Chromium lays it out, the script writes the boxes it measured
# into the DOM, and --dump-dom brings them back (the report itself has no script).
LAYOUT_PROBE = """<script>
const box = e => e ? e.getBoundingClientRect() : null;
const first = document.querySelector("ol.findings > li.finding");
const runs = document.querySelector("section#runs");
const source = first ? first.querySelector("pre.source") : null;
const line = first ? first.querySelector(".finding-line") : null;
const probe = {
  first: first ? [box(first).top, box(first).bottom] : null,
  runs: runs ? box(runs).top : null,
  source: source ? [box(source).top, box(source).bottom] : null,
  sourceText: source ? source.innerText : "",
  line: line ? line.innerText : "",
};
document.body.setAttribute("data-probe", JSON.stringify(probe));
</script>"""
SAMPLED_FIXTURE = "sampled_two_functions.json"
FLAME_PROBE = """<script>
const svg = document.querySelector("svg.flame-graph");
const bars = svg ? [...svg.querySelectorAll("rect")].map(r => r.getBoundingClientRect().width) : [];
const table = document.querySelector("table.sampled-lines");
document.body.setAttribute("data-probe", JSON.stringify({
  width: svg ? svg.getBoundingClientRect().width : 0,
  bars: bars.length, widest: bars.length ? Math.max(...bars) : 0,
  lines: table ? table.innerText : "",
}));
</script>"""
MIN_PNG_BYTES = 40_000
MIN_DISTINCT_COLOURS = 200
MIN_PIXELS_PER_CHART_COLOUR = 300


def chromium_command(chromium, profile_dir, *args):
    return [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", f"--user-data-dir={profile_dir}", *args]


def run_chromium(chromium, *args):
    profile_dir = tempfile.mkdtemp(prefix="ompscope-chromium-")
    try:
        return subprocess.run(chromium_command(chromium, profile_dir, *args), capture_output=True, text=True,
                              timeout=60)
    finally:
        shutil.rmtree(profile_dir, ignore_errors=True)


def unfilter_row(kind, row, previous, bpp):
    """Undoes one scanline's PNG filter. Pure Python is slow per byte, so the common filters
    work on whole rows: Up adds bytes in parallel inside one big integer (SWAR), Sub runs one
    accumulate per colour channel."""
    n = len(row)
    if kind == 0:
        return bytes(row)
    if kind == 2:
        if not any(row):
            return bytes(previous)
        a, b = int.from_bytes(row, "big"), int.from_bytes(previous, "big")
        low7, high = _masks(n)
        return (((a & low7) + (b & low7)) ^ ((a ^ b) & high)).to_bytes(n, "big")
    out = bytearray(row)
    if kind == 1:
        for channel in range(bpp):
            out[channel::bpp] = bytes(itertools.accumulate(row[channel::bpp], lambda s, x: (s + x) & 0xFF))
        return bytes(out)
    if kind == 3:
        for i in range(n):
            left = out[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + ((left + previous[i]) >> 1)) & 0xFF
        return bytes(out)
    if kind == 4:
        for i in range(bpp):
            out[i] = (out[i] + previous[i]) & 0xFF
        for i in range(bpp, n):
            a, b, c = out[i - bpp], previous[i], previous[i - bpp]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
            out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        return bytes(out)
    raise ValueError(f"unknown PNG filter {kind}")


_mask_cache = {}


def _masks(n):
    if n not in _mask_cache:
        _mask_cache[n] = (int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big"))
    return _mask_cache[n]


def decode_png(path):
    """Returns (width, height, rows of RGB(A) bytes, bytes per pixel) of an 8-bit RGB/RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, idat, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[position + 8 + length:position + 12 + length])[0]:
            raise ValueError(f"bad CRC in {kind!r} chunk")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}, interlace {interlace}")
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, previous = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        row = unfilter_row(raw[start], raw[start + 1:start + 1 + stride], previous, bpp)
        rows.append(row)
        previous = row
    return width, height, rows, bpp


def colour_histogram(rows, bpp):
    """Pixel count per RGB colour (alpha ignored)."""
    histogram = collections.Counter()
    for row in rows:
        histogram.update(zip(row[0::bpp], row[1::bpp], row[2::bpp]))
    return histogram


class DomText(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def check_screenshot(name, png, failures):
    if not os.path.exists(png):
        failures.append(f"{name}: Chromium wrote no screenshot")
        return
    size = os.path.getsize(png)
    try:
        width, height, rows, bpp = decode_png(png)
    except (ValueError, zlib.error, struct.error, TypeError) as error:
        failures.append(f"{name}: screenshot does not decode: {error}")
        return
    histogram = colour_histogram(rows, bpp)
    print(f"{name}: {width}x{height} PNG, {size} bytes, {len(histogram)} distinct colours")
    if (width, height) != (1280, 2000):
        failures.append(f"{name}: screenshot is {width}x{height}, expected 1280x2000")
    if size < MIN_PNG_BYTES:
        failures.append(f"{name}: screenshot is only {size} bytes: the page looks empty")
    if len(histogram) < MIN_DISTINCT_COLOURS:
        failures.append(f"{name}: only {len(histogram)} distinct colours: charts and text did not render")
    if name == TEMPLATE_FIXTURE:
        for what, rgb in TEMPLATE_FIXTURE_COLOURS.items():
            pixels = histogram.get(rgb, 0)
            if pixels < MIN_PIXELS_PER_CHART_COLOUR:
                failures.append(f"{name}: {what} missing from the screenshot ({pixels} pixels of #{bytes(rgb).hex()})")


def check_dom(name, dom, failures):
    parser = DomText()
    parser.feed(dom)
    text = "".join(parser.text)
    if TEMPLATE_NAME not in text:
        failures.append(f"{name}: the DOM's text lacks {TEMPLATE_NAME!r}")
    if "solve&lt;std::vector&lt;int&gt;&gt;" not in dom:
        failures.append(f"{name}: the serialised DOM lacks the escaped template name")
    if f'title="{TEMPLATE_SIGNATURE}"' not in dom:
        failures.append(f"{name}: the full signature is not on hover (title) of the function name")
    if "solve<std::vector<int>>(int)" in text:
        failures.append(f"{name}: the function name is shown with its parameter list")
    made_up = {tag for tag in parser.tags if tag.startswith("std::") or tag in ("int", "int>", "fast")}
    if made_up or "<std::vector" in dom:
        failures.append(f"{name}: program text became elements: {sorted(made_up)}")
    if "--mode=<fast>" not in text:
        failures.append(f"{name}: the command argument '--mode=<fast>' is not shown as text")


def run_probe(name, page, chromium, script, what, failures):
    """Lays the page out in Chromium with `script` before </body>, which leaves its findings as
    JSON in the body's data-probe attribute: those findings, or None (a failure said why)."""
    with open(page, encoding="utf-8") as f:
        html_text = f.read()
    probe_page = page[:-len(".html")] + f"-{what}.html"
    with open(probe_page, "w", encoding="utf-8") as f:
        f.write(html_text.replace("</body>", script + "</body>"))
    dumped = run_chromium(chromium, "--window-size=1280,2000", "--dump-dom", "file://" + probe_page)
    marker = 'data-probe="'
    at = dumped.stdout.find(marker)
    if dumped.returncode != 0 or at < 0:
        failures.append(f"{name}: the {what} probe did not run (chromium exited {dumped.returncode})")
        return None
    return json.loads(html.unescape(dumped.stdout[at + len(marker):dumped.stdout.find('"', at + len(marker))]))


def check_findings_layout(name, page, chromium, failures):
    """Lays the page out in Chromium and checks where the first finding and its source are."""
    probe = run_probe(name, page, chromium, LAYOUT_PROBE, "layout", failures)
    if probe is None:
        return
    print(f"{name}: first finding at y={probe['first']}, runs table at y={probe['runs']}, source at y={probe['source']}")
    if not probe["first"]:
        failures.append(f"{name}: no finding in the laid-out page")
        return
    if probe["runs"] is None or not probe["first"][1] <= probe["runs"]:
        failures.append(f"{name}: the first finding does not end before the runs table starts: {probe}")
    for part in ("load imbalance", "imbalanced_loop.c:24", "gain", "try schedule(dynamic"):
        if part not in probe["line"]:
            failures.append(f"{name}: the first finding's line lacks {part!r}: {probe['line']!r}")
    if not probe["source"]:
        failures.append(f"{name}: the first finding shows no source lines")
    elif not (probe["first"][0] <= probe["source"][0] and probe["source"][1] <= probe["first"][1]):
        failures.append(f"{name}: the source lines are not inside the first finding's box: {probe}")
    if FINDINGS_SOURCE_LINE not in probe["sourceText"]:
        failures.append(f"{name}: the first finding's source lacks {FINDINGS_SOURCE_LINE!r}: {probe['sourceText']!r}")


def check_flame_graph(name, page, chromium, failures):
    """Lays the page out in Chromium: the flame graph spans most of the page, with its bars."""
    probe = run_probe(name, page, chromium, FLAME_PROBE, "flame", failures)
    if probe is None:
        return
    print(f"{name}: flame graph {probe['width']:.0f} px wide, {probe['bars']} bars, widest {probe['widest']:.0f} px")
    if probe["width"] < 600 or probe["bars"] < 3 or probe["widest"] < 0.9 * probe["width"]:
        failures.append(f"{name}: the flame graph is not laid out across the page: {probe}")
    if "shared_count" not in probe["lines"]:
        failures.append(f"{name}: the table of sampled lines lacks shared_count: {probe['lines']!r}")


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--renderer", required=True, help="the render_html_fixture program")
    arguments.add_argument("--fixtures", required=True, help="folder of report.json fixtures")
    arguments.add_argument("--work-dir", required=True, help="where report.html files and screenshots go")
    arguments.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    options = arguments.parse_args()
    if not os.access(options.chromium, os.X_OK):
        print(f"SKIP: no Chromium at {options.chromium}")
        return 77

    os.makedirs(options.work_dir, exist_ok=True)
    failures = []
    for name in sorted(f for f in os.listdir(options.fixtures) if f.endswith(".json")):
        stem = name[:-len(".json")]
        page = os.path.abspath(os.path.join(options.work_dir, stem + ".html"))
        png = os.path.abspath(os.path.join(options.work_dir, stem + ".png"))
        if os.path.exists(png):
            os.remove(png)
        rendered = subprocess.run([options.renderer, os.path.join(options.fixtures, name), page],
                                  capture_output=True, text=True)
        if rendered.returncode != 0:
            failures.append(f"{name}: renderer failed: {rendered.stderr.strip()}")
            continue
        shot = run_chromium(options.chromium, f"--screenshot={png}", "--window-size=1280,2000", "file://" + page)
        if shot.returncode != 0:
            failures.append(f"{name}: chromium --screenshot exited {shot.returncode}: {shot.stderr.strip()[-400:]}")
        check_screenshot(name, png, failures)
        if name == TEMPLATE_FIXTURE:
            dumped = run_chromium(options.chromium, "--dump-dom", "file://" + page)
            if dumped.returncode != 0:
                failures.append(f"{name}: chromium --dump-dom exited {dumped.returncode}")
            check_dom(name, dumped.stdout, failures)
        if name == FINDINGS_FIXTURE:
            check_findings_layout(name, page, options.chromium, failures)
        if name == SAMPLED_FIXTURE:
            check_flame_graph(name, page, options.chromium, failures)

    for failure in failures:
        print("FAIL:", failure)
    print("html report chromium check:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
