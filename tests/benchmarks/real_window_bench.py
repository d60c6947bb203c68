#!/usr/bin/python3
"""Responsiveness of the real window, measured from outside the process, as a user feels it.

Run by hand (not part of ctest), from the repository, on a Release build:

    cmake --preset release && cmake --build build/release --target rematlens
    /usr/bin/python3 tests/benchmarks/real_window_bench.py                # all eight traces, 1024x700
    /usr/bin/python3 tests/benchmarks/real_window_bench.py --traces inceptionv4 lstm \\
        --sizes 1024x700 1920x1080 --json window.json --verbose

Needs Debian's xvfb, openbox and python3-xlib (scripts/install-deps.sh installs them).

For each trace and window size it starts Xvfb on a free display with openbox as window manager,
runs `rematlens gui TRACE` with a fresh XDG_CONFIG_HOME and XDG_DATA_HOME and REMATLENS_ATLAS_DIR
set to the repository's atlas/maps (the bundled maps), sizes the window, and drives a session with
XTest events: while the bundled map loads, open and close the File menu (Alt+F, a click on the
menu bar) and type keys; then click the strip (a failing cell, a passing cell, holes), click rows
of the Holes table, step with the arrow keys in the strip, switch the view tabs, resize the window
by dragging, Map Exactly (Ctrl+M) and cancel (Ctrl+.).

The measure: a separate process sends a _NET_WM_PING client message to the window every few
milliseconds and waits for its answer. Qt answers pings from its GUI thread's event loop, so the
round trip is how long the window could not answer. Each scripted action's stall is its longest
round trip (a ping sent during the action) or its longest gap between two answers, whichever is
longer. Menus are also timed from the key or click to the popup's MapNotify. Checked on a small Qt
program: a 600 ms sleep or busy loop on its GUI thread reads as a 600 ms stall, a busy worker
thread as none. The pinger costs about 5 % of a core, Xvfb and the answers a few % more.

Prints, per trace and size, the longest stall, the action it happened in and the 1-minute load
average (/proc/loadavg) when that action ended; --verbose adds every action. Exits 0 when it
measured (a run that failed is reported in the table), 2 on a usage error.

Traces: REMATLENS_SHARED_DIR/traces/dtr-2020, else ../shared beside the repository (or beside a
folder above it); --traces takes names (inceptionv4) or paths.
"""

import argparse
import bisect
import json
import math
import multiprocessing
import os
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from array import array
from pathlib import Path

from public_trace_files import REPO, resolve_traces

try:
    from Xlib import X, XK, Xatom, display, error
    from Xlib.ext import xtest
    from Xlib.protocol import event as xevent
except ImportError:  # pragma: no cover - reported in main()
    display = None

PING_MAGIC = 0x524C5742  # marks this benchmark's pings in the message's last word

# The strip's colours (views/strip/outcome_palette.cpp), as 0xRRGGBB.
PASS = 0x009E73
OUT_OF_MEMORY = 0xD55E00
THRASH = 0xE69F00
TIMEOUT = 0xCC79A7
IMPOSSIBLE = 0x555555
OUTCOMES = {PASS, OUT_OF_MEMORY, THRASH, TIMEOUT, IMPOSSIBLE}
HOLE = 0x202020  # a hole's outline; dense holes make a dark block in the band


def now():
    return time.monotonic()


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return float("nan")


# ---------------------------------------------------------------------------------------------
# The pinger: its own process and X connection, so that nothing the driver does delays it.


def _pinger_main(display_name, window_id, interval, stop, last_answered, conn):
    d = display.Display(display_name)
    root = d.screen().root
    wm_protocols = d.intern_atom("WM_PROTOCOLS")
    ping = d.intern_atom("_NET_WM_PING")
    # Qt sends the answer to the root window for clients that select StructureNotify there.
    root.change_attributes(event_mask=X.StructureNotifyMask)
    window = d.create_resource_object("window", window_id)
    failed = []

    def on_error(err, *args):
        failed.append(str(err))

    sent = array("d")
    answered = array("d")  # answer time per ping, nan until answered
    next_send = now()
    seq = 0
    while not stop.is_set() and not failed:
        t = now()
        if t >= next_send:
            message = xevent.ClientMessage(window=window, client_type=wm_protocols,
                                           data=(32, [ping, X.CurrentTime, window_id, seq, PING_MAGIC]))
            window.send_event(message, event_mask=0, onerror=on_error)
            d.flush()
            sent.append(t)
            answered.append(math.nan)
            seq += 1
            next_send += interval
            if next_send < t:  # this process itself was not scheduled: no burst to catch up
                next_send = t + interval
        timeout = max(0.0, next_send - now())
        readable, _, _ = select.select([d.fileno()], [], [], timeout)
        if readable or d.pending_events():
            while d.pending_events():
                e = d.next_event()
                if e.type != X.ClientMessage or e.window.id != root.id:
                    continue
                words = e.data[1]
                if words[0] != ping or words[4] != PING_MAGIC or words[2] != window_id:
                    continue
                k = words[3]
                if 0 <= k < len(sent) and math.isnan(answered[k]):
                    answered[k] = now()
                    last_answered.value = sent[k]
    conn.send({"sent": sent.tolist(), "answered": answered.tolist(), "error": failed[0] if failed else None})
    conn.close()
    d.close()


class Pinger:
    """Pings `window_id` every `interval` seconds until stopped; `lag()` is how long ago the
    newest answered ping was sent (small when the window answers)."""

    def __init__(self, display_name, window_id, interval):
        self.interval = interval
        ctx = multiprocessing.get_context("fork")
        self._stop = ctx.Event()
        self._last = ctx.Value("d", now(), lock=False)
        self._recv, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_pinger_main,
                                    args=(display_name, window_id, interval, self._stop, self._last, send),
                                    daemon=True)
        self._process.start()
        self.started = now()
        self.result = None

    def lag(self):
        return now() - self._last.value

    def wait_quiet(self, quiet=0.5, limit=30.0, threshold=0.05):
        """Waits until every ping for `quiet` seconds was answered within `threshold`; returns
        False after `limit` seconds."""
        start = now()
        since = None
        while now() - start < limit:
            if self.lag() < threshold + self.interval:
                since = since or now()
                if now() - since >= quiet:
                    return True
            else:
                since = None
            time.sleep(0.01)
        return False

    def stop(self):
        self._stop.set()
        if self._recv.poll(10):
            self.result = self._recv.recv()
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
        if self.result is None:
            self.result = {"sent": [], "answered": [], "error": "the pinger did not report"}
        return self.result


def action_stalls(actions, pings, interval, end):
    """Per action: its longest round trip (pings sent during it; one never answered counts until
    `end`) and its longest time without an answer (gaps between two answers, as far as they fall
    within the action)."""
    sent, answered = pings["sent"], pings["answered"]
    answers = sorted(a for a in answered if not math.isnan(a)) + [end]
    for action in actions:
        t0, t1 = action["start"], action["end"]
        rtt, rtt_began = 0.0, t0
        count = unanswered = 0
        for k in range(bisect.bisect_left(sent, t0), bisect.bisect_left(sent, t1)):
            count += 1
            a = answered[k]
            if math.isnan(a):
                unanswered += 1
                a = end
            if a - sent[k] > rtt:
                rtt, rtt_began = a - sent[k], sent[k]
        gap, gap_began = 0.0, t0
        for k in range(max(0, bisect.bisect_left(answers, t0) - 1), len(answers) - 1):
            first, second = answers[k], answers[k + 1]
            if first >= t1:
                break
            if min(second, t1) - max(first, t0) - interval > gap:
                gap, gap_began = min(second, t1) - max(first, t0) - interval, max(first, t0)
        action["pings"] = count
        action["unanswered"] = unanswered
        action["longest_round_trip_ms"] = round(rtt * 1000, 1)
        action["longest_gap_ms"] = round(gap * 1000, 1)
        action["stall_ms"] = round(max(rtt, gap) * 1000, 1)
        action["stall_began"] = rtt_began if rtt >= gap else gap_began
    return actions


# ---------------------------------------------------------------------------------------------
# Screen: Xvfb and openbox on a free display.


class XServer:
    def __init__(self, width, height, workdir):
        self.workdir = workdir
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp",
             "-noreset"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=open(workdir / "xvfb.log", "w"))
        os.close(write)
        number = b""
        deadline = now() + 20
        while now() < deadline and not number.endswith(b"\n"):
            ready, _, _ = select.select([read], [], [], 0.5)
            if ready:
                chunk = os.read(read, 16)
                if not chunk:
                    break
                number += chunk
        os.close(read)
        if not number.strip():
            self.close()
            raise RuntimeError("Xvfb did not start: " + (workdir / "xvfb.log").read_text()[-500:])
        self.name = ":" + number.decode().strip()
        env = dict(os.environ, DISPLAY=self.name)
        self.openbox = subprocess.Popen(["openbox", "--sm-disable"], env=env, stdout=subprocess.DEVNULL,
                                        stderr=open(workdir / "openbox.log", "w"))
        self.display = display.Display(self.name)
        self.root = self.display.screen().root
        check = self.display.intern_atom("_NET_SUPPORTING_WM_CHECK")
        deadline = now() + 20
        while now() < deadline:
            if self.root.get_full_property(check, Xatom.WINDOW):
                return
            time.sleep(0.05)
        self.close()
        raise RuntimeError("openbox did not start")

    def close(self):
        for process in (getattr(self, "openbox", None), self.xvfb):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


# ---------------------------------------------------------------------------------------------
# Screenshots and what they show: the strip's cells and holes, the Holes table's rows, the tabs.


class Shot:
    def __init__(self, window, width, height):
        raw = window.get_image(0, 0, width, height, X.ZPixmap, 0xFFFFFFFF).data
        pixels = array("I")
        pixels.frombytes(raw[: width * height * 4])
        if sys.byteorder != "little":
            pixels.byteswap()
        self.width, self.height = width, height
        self.pixels = pixels

    def at(self, x, y):
        return self.pixels[y * self.width + x] & 0xFFFFFF

    def row(self, y, x0=0, x1=None):
        x1 = self.width if x1 is None else x1
        base = y * self.width
        return [p & 0xFFFFFF for p in self.pixels[base + x0: base + x1]]

    def save_png(self, path, marks=()):
        """Writes the shot with a red cross at each (x, y) of `marks`."""
        rgb = bytearray()
        cross = set()
        for x, y in marks:
            for d in range(-6, 7):
                cross.add((x + d, y))
                cross.add((x, y + d))
        for y in range(self.height):
            rgb.append(0)
            for x, p in enumerate(self.row(y)):
                if (x, y) in cross:
                    rgb += b"\xff\x00\x00"
                else:
                    rgb += bytes(((p >> 16) & 255, (p >> 8) & 255, p & 255))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
        png += chunk(b"IDAT", zlib.compress(bytes(rgb), 6)) + chunk(b"IEND", b"")
        Path(path).write_bytes(png)


def grey(p):
    r, g, b = (p >> 16) & 255, (p >> 8) & 255, p & 255
    return r if r == g == b else None


def runs_of(values):
    """[(value, start, length)] of equal neighbours."""
    out = []
    for i, v in enumerate(values):
        if out and out[-1][0] == v:
            out[-1][2] += 1
        else:
            out.append([v, i, 1])
    return [tuple(r) for r in out]


def find_strip(shot):
    """The band of the strip's cells: rows where most of a long stretch is an outcome's colour.
    Returns (top, bottom, left, right) or None."""
    band_rows = []
    for y in range(shot.height):
        # The longest span of outcome colours and hole outlines, across gaps of up to 40 pixels
        # (hole hatching, the selection's frame); a lone grey text pixel is no span.
        spans = []
        for value, start, length in runs_of([p in OUTCOMES or p == HOLE for p in shot.row(y)]):
            if not value:
                continue
            if spans and start - spans[-1][1] <= 40:
                spans[-1][1] = start + length
                spans[-1][2] += length
            else:
                spans.append([start, start + length, length])
        spans = [s for s in spans if s[2] >= 0.6 * (s[1] - s[0])]
        if spans:
            start, end, _ = max(spans, key=lambda s: s[1] - s[0])
            if end - start >= max(60, shot.width // 8):
                band_rows.append((y, start, end - 1))
    if not band_rows:
        return None
    # The longest run of consecutive rows.
    best, current = [], []
    for entry in band_rows:
        if current and entry[0] != current[-1][0] + 1:
            current = []
        current.append(entry)
        if len(current) > len(best):
            best = list(current)
    top, bottom = best[0][0], best[-1][0]
    left = min(e[1] for e in best)
    right = max(e[2] for e in best)
    return top, bottom, left, right


def strip_targets(shot, strip):
    """Where to click in the strip: the middle of the longest failing and passing stretches, and
    the hole marks drawn just above the band (dark triangles)."""
    top, bottom, left, right = strip
    middle = (top + bottom) // 2
    row = shot.row(middle, left, right + 1)
    targets = {}
    for colour, name in ((OUT_OF_MEMORY, "failing"), (PASS, "passing")):
        stretches = [(length, start) for value, start, length in runs_of(row) if value == colour]
        if stretches:
            length, start = max(stretches)
            targets[name] = (left + start + length // 2, middle)
    holes = []
    # The marks' widest row (their tips, nearest the band, are narrow).
    rows = [[1 if grey(p) is not None and grey(p) < 80 else 0 for p in shot.row(y, left, right + 1)]
            for y in range(max(0, top - 9), top - 1)]
    dark = max(rows, key=sum, default=[])
    # A wide dark run is many marks side by side (a dense stretch of holes): one target every 8
    # pixels along it.
    for value, start, length in runs_of(dark):
        if value == 1:
            holes += [left + start + length // 2] if length <= 12 else \
                [left + start + offset for offset in range(4, length - 3, 8)]
    targets["holes"] = [(x, middle) for x in holes]
    return targets


def find_hole_rows(shot, strip_right):
    """Rows of the Holes table, the topmost table right of the strip: the centres of the rows
    above each of its horizontal grid lines. Returns [(x, y)]."""
    x0 = strip_right + 20
    lines = []
    for y in range(30, int(shot.height * 0.7)):
        for value, start, length in runs_of(shot.row(y, x0)):
            g = grey(value)
            if g is not None and 185 <= g <= 215 and length >= 80:
                lines.append((y, x0 + start, length))
                break
    if not lines:
        return []
    # The first group of evenly spaced lines, as far as the spacing holds.
    group = [lines[0]]
    for line in lines[1:]:
        spacing = group[1][0] - group[0][0] if len(group) > 1 else None
        step = line[0] - group[-1][0]
        if spacing is None and 12 <= step <= 40 or spacing is not None and step == spacing:
            group.append(line)
        elif step > 1:
            break
    height = group[1][0] - group[0][0] if len(group) > 1 else 20
    x = group[0][1] + 12
    return [(x, y - height // 2) for y, _, _ in group]


def find_tabs(shot, strip):
    """The view tabs under the strip: rows that cross, from the left, a border, a tab, a border,
    another tab, a border and then a long stretch of the window's background. Returns
    [(x, y)] of the two tabs' centres, or []."""
    top, bottom, left, right = strip

    def tabs_in(y):
        row = shot.row(y, 0, min(shot.width, right + 40))
        merged = [(value * 8, start, length) for value, start, length in runs_of([(grey(p) or 0) // 8 for p in row])]
        for i in range(len(merged) - 5):
            b1, t1, b2, t2, b3, bg = merged[i:i + 6]
            if not all(b[0] < 200 and b[2] <= 2 for b in (b1, b2, b3)):
                continue
            if not (40 <= t1[2] <= 300 and 30 <= t2[2] <= 300 and t1[0] >= 200 and t2[0] >= 200):
                continue
            if bg[2] >= 100 and bg[0] >= 200 and t1[1] < left:
                return t1[1] + t1[2] // 2, t2[1] + t2[2] // 2
        return None

    for y in range(bottom + 20, int(shot.height * 0.9)):
        found = tabs_in(y)
        if found:
            # The rows of the tabs (their labels interrupt the pattern): the middle of them.
            last = y
            for below in range(y + 1, min(shot.height, y + 40)):
                if tabs_in(below) == found:
                    last = below
            middle = (y + last) // 2
            return [(found[0], middle), (found[1], middle)]
    return []


# ---------------------------------------------------------------------------------------------
# The window and the session.


class Session:
    def __init__(self, server, process, width, height, args, log):
        self.server = server
        self.d = server.display
        self.root = server.root
        self.process = process
        self.width, self.height = width, height
        self.args = args
        self.log = log
        self.actions = []
        self.notes = []
        self.window = None
        self.pinger = None
        self.debug_shots = 0
        # Popups (menus) are windows of their own: their MapNotify tells when a menu opened.
        self.root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.popups = []  # (time, "map" | "unmap", window id)

    # -- the window --------------------------------------------------------------------------

    def find_window(self, timeout=60):
        client_list = self.d.intern_atom("_NET_CLIENT_LIST")
        pid_atom = self.d.intern_atom("_NET_WM_PID")
        deadline = now() + timeout
        while now() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"rematlens exited with {self.process.returncode}")
            prop = self.root.get_full_property(client_list, Xatom.WINDOW)
            for wid in (prop.value if prop else []):
                w = self.d.create_resource_object("window", wid)
                try:
                    pid = w.get_full_property(pid_atom, Xatom.CARDINAL)
                    if pid and pid.value[0] == self.process.pid and w.get_attributes().map_state == X.IsViewable:
                        self.window = w
                        return w
                except error.XError:
                    continue
            time.sleep(0.02)
        raise RuntimeError("the window did not appear")

    def origin(self):
        at = self.root.translate_coords(self.window, 0, 0)
        return at.x, at.y

    def client_size(self):
        g = self.window.get_geometry()
        return g.width, g.height

    def activate(self):
        atom = self.d.intern_atom("_NET_ACTIVE_WINDOW")
        message = xevent.ClientMessage(window=self.window, client_type=atom, data=(32, [2, X.CurrentTime, 0, 0, 0]))
        self.root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        self.d.sync()

    def resize(self, width, height):
        self.window.configure(width=width, height=height)
        self.d.sync()

    def screenshot(self, label, marks=()):
        width, height = self.client_size()
        shot = Shot(self.window, width, height)
        if self.args.debug_shots:
            self.debug_shots += 1
            directory = Path(self.args.debug_shots)
            directory.mkdir(parents=True, exist_ok=True)
            name = f"{self.log['trace']}-{self.log['size']}-{self.debug_shots:02d}-{label}.png"
            shot.save_png(directory / name, marks)
        return shot

    # -- XTest ---------------------------------------------------------------------------------

    def keycode(self, name):
        keysym = XK.string_to_keysym(name)
        code = self.d.keysym_to_keycode(keysym)
        if not code:
            raise RuntimeError(f"no key for {name}")
        return code

    def key(self, combo):
        """Presses and releases a combination such as "alt+f", "ctrl+period", "Right"."""
        names = {"alt": "Alt_L", "ctrl": "Control_L", "shift": "Shift_L"}
        parts = [names.get(p, p) for p in combo.split("+")]
        codes = [self.keycode(p) for p in parts]
        for code in codes:
            xtest.fake_input(self.d, X.KeyPress, code)
        for code in reversed(codes):
            xtest.fake_input(self.d, X.KeyRelease, code)
        self.d.sync()

    def click(self, x, y, button=1):
        ox, oy = self.origin()
        xtest.fake_input(self.d, X.MotionNotify, x=ox + x, y=oy + y)
        self.d.sync()
        time.sleep(0.03)
        xtest.fake_input(self.d, X.ButtonPress, button)
        self.d.sync()
        time.sleep(0.03)
        xtest.fake_input(self.d, X.ButtonRelease, button)
        self.d.sync()

    def park_pointer(self):
        """Out of the window, so that no tooltip or hover follows the last click."""
        xtest.fake_input(self.d, X.MotionNotify, x=1, y=1)
        self.d.sync()

    def drain_popups(self):
        while self.d.pending_events():
            e = self.d.next_event()
            if e.type == X.MapNotify and e.override:
                self.popups.append((now(), "map", e.window.id))
            elif e.type == X.UnmapNotify:
                self.popups.append((now(), "unmap", e.window.id))

    def wait_popup(self, kind, since, timeout):
        deadline = now() + timeout
        while now() < deadline:
            self.drain_popups()
            for t, k, _ in self.popups:
                if k == kind and t >= since:
                    return t
            time.sleep(0.002)
        return None

    # -- actions -------------------------------------------------------------------------------

    def act(self, name, do, settle=True, dwell=0.0, popup=None):
        """Runs one scripted action; it lasts until the window answers again (settle) or for
        `dwell` seconds. `popup` ("map" or "unmap") times a menu opening or closing."""
        self.drain_popups()
        entry = {"action": name, "start": now(), "load_average_start": load_average()}
        do()
        if popup:
            seen = self.wait_popup(popup, entry["start"], self.args.menu_timeout)
            key = "menu_opened_ms" if popup == "map" else "menu_closed_ms"
            entry[key] = None if seen is None else round((seen - entry["start"]) * 1000, 1)
        if dwell:
            time.sleep(max(0.0, entry["start"] + dwell - now()))
        if settle and not self.pinger.wait_quiet(self.args.settle, self.args.settle_limit):
            entry["note"] = f"still not answering after {self.args.settle_limit:.0f} s"
        entry["end"] = now()
        entry["load_average"] = load_average()
        self.actions.append(entry)
        if self.process.poll() is not None:
            raise RuntimeError(f"rematlens exited with {self.process.returncode} during '{name}'")
        return entry

    def run(self):
        args = self.args
        self.find_window()
        self.pinger = Pinger(self.server.name, self.window.id, args.ping_ms / 1000)
        self.activate()
        w, h = self.width, self.height
        self.act(f"start: window shown, sized to {w}x{h}", lambda: self.resize(w, h), settle=False, dwell=0.3)

        # While the bundled map loads (and the first sweep runs): menus and keys, at a user's pace.
        loading_until = self.pinger.started + args.load_seconds
        while now() < loading_until:
            self.act("load: open the File menu (Alt+F)", lambda: self.key("alt+f"), settle=False, dwell=0.3,
                     popup="map")
            self.act("load: close the menu (Escape)", lambda: self.key("Escape"), settle=False, dwell=0.2,
                     popup="unmap")
            self.act("load: click File on the menu bar", lambda: self.click(16, 10), settle=False, dwell=0.3,
                     popup="map")
            self.act("load: close the menu (Escape)", lambda: self.key("Escape"), settle=False, dwell=0.2,
                     popup="unmap")
            self.act("load: key Ctrl+1 (focus the strip)", lambda: self.key("ctrl+1"), settle=False, dwell=0.15)
            self.act("load: key = (zoom the strip in)", lambda: self.key("equal"), settle=False, dwell=0.15)
            self.act("load: key 0 (the strip's whole range)", lambda: self.key("0"), settle=False, dwell=0.15)
        self.park_pointer()
        self.act("load: wait until the window answers", lambda: None, settle=True)

        # The strip: a failing cell, a passing cell, holes.
        shot = self.screenshot("loaded")
        strip = find_strip(shot)
        if strip is None:
            self.notes.append("no strip found in the window: strip, table and tab actions skipped")
        else:
            targets = strip_targets(shot, strip)
            holes = targets["holes"]
            if len(holes) > args.hole_clicks:  # spread over the marks, first and last included
                step = (len(holes) - 1) / max(1, args.hole_clicks - 1)
                holes = [holes[round(i * step)] for i in range(args.hole_clicks)]
            clicks = []
            if "failing" in targets:
                clicks.append(("strip: click a failing cell", targets["failing"]))
            if "passing" in targets:
                clicks.append(("strip: click a passing cell", targets["passing"]))
            clicks += [(f"strip: click hole {i + 1} of {len(targets['holes'])}", at) for i, at in enumerate(holes)]
            if not targets["holes"]:
                self.notes.append("no hole marked in the strip")
            if self.args.debug_shots:
                self.screenshot("strip-targets", [at for _, at in clicks])
            for name, (x, y) in clicks:
                self.act(name, lambda x=x, y=y: self.click(x, y))

            # The Holes table's rows.
            shot = self.screenshot("holes-table")
            rows = find_hole_rows(shot, strip[3])
            if self.args.debug_shots:
                self.screenshot("holes-table-rows", rows[: args.row_clicks])
            if not rows:
                self.notes.append("no row in the Holes table")
            for i, (x, y) in enumerate(rows[: args.row_clicks]):
                self.act(f"holes table: click row {i + 1}", lambda x=x, y=y: self.click(x, y))

            # Arrow keys in the strip.
            self.act("strip: key Ctrl+1 (focus the strip)", lambda: self.key("ctrl+1"))
            for combo in ("Right", "Right", "Right", "shift+Right", "Left", "Left"):
                self.act(f"strip: key {combo}", lambda combo=combo: self.key(combo))

            # The view tabs.
            self.park_pointer()
            self.pinger.wait_quiet(0.3, 5)
            shot = self.screenshot("tabs")
            tabs = find_tabs(shot, strip)
            if self.args.debug_shots:
                self.screenshot("tabs-found", tabs)
            if len(tabs) == 2:
                self.act("tabs: click Cascade", lambda: self.click(*tabs[1]))
                self.act("tabs: click Memory timeline", lambda: self.click(*tabs[0]))
            else:
                self.notes.append("view tabs not found")

        # Resizing, as a drag does: ten sizes 80 ms apart, smaller and back.
        def drag(to_w, to_h, from_w, from_h):
            for i in range(1, 11):
                self.resize(round(from_w + (to_w - from_w) * i / 10), round(from_h + (to_h - from_h) * i / 10))
                time.sleep(0.08)

        small_w, small_h = round(w * 0.8), round(h * 0.8)
        self.act(f"resize: drag to {small_w}x{small_h}", lambda: drag(small_w, small_h, w, h))
        self.act(f"resize: drag back to {w}x{h}", lambda: drag(w, h, small_w, small_h))

        # Map Exactly, a second of intervals streaming in, then Cancel.
        self.act("map: Map Exactly (Ctrl+M), first second", lambda: self.key("ctrl+m"), settle=False, dwell=1.0)
        self.act("map: Cancel (Ctrl+.)", lambda: self.key("ctrl+period"))

    def finish(self):
        end = now()
        pings = self.pinger.stop() if self.pinger else {"sent": [], "answered": [], "error": None}
        if pings.get("error"):
            self.notes.append("pinger: " + pings["error"])
        action_stalls(self.actions, pings, self.args.ping_ms / 1000, end)
        base = self.pinger.started if self.pinger else 0
        for a in self.actions:
            for key in ("start", "end", "stall_began"):
                a[key + "_s"] = round(a.pop(key) - base, 3)
        answered = [a - s for s, a in zip(pings["sent"], pings["answered"]) if not math.isnan(a)]
        answered.sort()
        return {
            "pings": len(pings["sent"]),
            "median_round_trip_ms": round(answered[len(answered) // 2] * 1000, 2) if answered else None,
        }


def run_one(program, trace_name, trace_path, width, height, args):
    work = Path(tempfile.mkdtemp(prefix="rematlens-window-"))
    result = {"trace": trace_name, "size": f"{width}x{height}", "actions": [], "notes": []}
    server = process = session = None
    try:
        server = XServer(width + 160, height + 160, work)
        env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
        env.update({
            "DISPLAY": server.name,
            "QT_QPA_PLATFORM": "xcb",
            "XDG_CONFIG_HOME": str(work / "config"),
            "XDG_DATA_HOME": str(work / "data"),
            "XDG_CACHE_HOME": str(work / "cache"),
            "XDG_RUNTIME_DIR": str(work / "runtime"),
            "REMATLENS_ATLAS_DIR": str(args.atlas),
        })
        env.update(args.app_env)
        (work / "runtime").mkdir(mode=0o700)
        if args.sweep:  # the sweep a first start runs, as the window would have saved it
            settings = work / "config" / "RematLens" / "RematLens.conf"
            settings.parent.mkdir(parents=True)
            first, last, step = args.sweep
            settings.write_text(f"[sweep]\nfrom={first}\nto={last}\nstep={step}\n")
        command = [str(program), "gui", *args.app_args, str(trace_path)]
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                   stderr=open(work / "rematlens.log", "w"), start_new_session=True)
        result["load_average_start"] = load_average()
        session = Session(server, process, width, height, args, result)
        try:
            session.run()
        except Exception as e:  # the run is reported, the others go on
            result["notes"].append(f"stopped: {e}")
        result.update(session.finish())
        result["actions"] = session.actions
        result["notes"] += session.notes
    except Exception as e:
        result["notes"].append(f"failed: {e}")
    finally:
        if process and process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process and process.returncode not in (0, -signal.SIGTERM, None):
            log = (work / "rematlens.log").read_text(errors="replace")[-400:]
            result["notes"].append(f"rematlens exited with {process.returncode}: {log}")
        if server:
            server.close()
        if args.keep:
            result["workdir"] = str(work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    measured = [a for a in result["actions"] if "stall_ms" in a]
    if measured:
        worst = max(measured, key=lambda a: a["stall_ms"])
        result["longest_stall_ms"] = worst["stall_ms"]
        result["action"] = worst["action"]
        result["stall_began_s"] = worst["stall_began_s"]
        result["load_average"] = worst["load_average"]
        menus = [a["menu_opened_ms"] for a in measured if a.get("menu_opened_ms") is not None]
        result["slowest_menu_ms"] = max(menus) if menus else None
        result["menus_not_opened"] = sum(1 for a in measured if "menu_opened_ms" in a and a["menu_opened_ms"] is None)
    return result


def table(rows, columns):
    widths = [max(len(str(c)), *(len(str(r[i])) for r in rows)) for i, c in enumerate(columns)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(columns, widths))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))
    return "\n".join(lines)


def size_arg(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 400 or h < 300:
            raise ValueError
        return w, h
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT (at least 400x300)")


def sweep_arg(text):
    parts = text.split(":")
    try:
        if len(parts) != 3:
            raise ValueError
        for part in parts:
            float(part)
        return parts
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not FROM:TO:STEP")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--traces", nargs="+", metavar="NAME_OR_PATH",
                        help="public trace names (unet, ..., lstm) or trace files (default: all eight)")
    parser.add_argument("--sizes", nargs="+", type=size_arg, default=[(1024, 700)], metavar="WxH",
                        help="window sizes (default: 1024x700)")
    parser.add_argument("--json", metavar="FILE", help="write every run and action to FILE")
    parser.add_argument("--program", type=Path, default=REPO / "build" / "release" / "bin" / "rematlens",
                        help="the rematlens binary (default: build/release/bin/rematlens)")
    parser.add_argument("--atlas", type=Path, default=REPO / "atlas" / "maps",
                        help="REMATLENS_ATLAS_DIR for the window (default: the repository's atlas/maps)")
    parser.add_argument("--no-atlas", action="store_true", help="point REMATLENS_ATLAS_DIR at an empty folder")
    parser.add_argument("--sweep", type=sweep_arg, metavar="FROM:TO:STEP",
                        help="the sweep the window runs at start, written to its fresh settings (default: the "
                             "window's own, 0.1:1.0:0.01; the offscreen benchmark sweeps 0.2:1.0:0.1)")
    parser.add_argument("--app-args", default="", metavar="ARGS",
                        help="more arguments for `rematlens gui`, e.g. \"--allocator caching\"")
    parser.add_argument("--app-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the program only (repeatable)")
    parser.add_argument("--load-seconds", type=float, default=10.0,
                        help="how long after start menus and keys are tried while the map loads (default: 10)")
    parser.add_argument("--ping-ms", type=float, default=5.0, help="interval between pings (default: 5)")
    parser.add_argument("--settle", type=float, default=0.5,
                        help="an action ends when every ping was answered within 50 ms for this long (default: 0.5 s)")
    parser.add_argument("--settle-limit", type=float, default=60.0, help="most seconds an action waits (default: 60)")
    parser.add_argument("--menu-timeout", type=float, default=10.0, help="most seconds to wait for a menu to open")
    parser.add_argument("--hole-clicks", type=int, default=3, help="holes clicked in the strip (default: 3)")
    parser.add_argument("--row-clicks", type=int, default=3, help="rows clicked in the Holes table (default: 3)")
    parser.add_argument("--debug-shots", metavar="DIR", help="write screenshots with the click targets marked")
    parser.add_argument("--keep", action="store_true", help="keep each run's folder (logs, settings)")
    parser.add_argument("--verbose", action="store_true", help="print every action of every run")
    args = parser.parse_args()
    args.app_args = shlex.split(args.app_args)
    try:
        args.app_env = dict(item.split("=", 1) for item in args.app_env)
    except ValueError:
        parser.error("--app-env takes NAME=VALUE")

    if display is None:
        parser.error("python3-xlib is missing (apt-get install python3-xlib)")
    for tool in ("Xvfb", "openbox"):
        if not shutil.which(tool):
            parser.error(f"{tool} is missing (scripts/install-deps.sh installs it)")
    if not os.access(args.program, os.X_OK):
        parser.error(f"no program at {args.program}: build it (cmake --build build/release --target rematlens)")
    empty = None
    if args.no_atlas:
        empty = tempfile.mkdtemp(prefix="rematlens-no-atlas-")
        args.atlas = Path(empty)
    traces = resolve_traces(args.traces, "real_window_bench")

    runs = []
    for width, height in args.sizes:
        for name, path in traces:
            print(f"{name} at {width}x{height}…", file=sys.stderr, flush=True)
            result = run_one(args.program, name, path, width, height, args)
            runs.append(result)
            if args.verbose:
                rows = [(a["action"], a["start_s"], a["stall_ms"], a["longest_round_trip_ms"], a["longest_gap_ms"],
                         a["stall_began_s"], "" if a.get("menu_opened_ms") is None else a["menu_opened_ms"],
                         a["load_average"], a.get("note", ""))
                        for a in result["actions"] if "stall_ms" in a]
                print(f"\n{name} {width}x{height}")
                print(table(rows, ["action", "at s", "stall ms", "round trip ms", "gap ms", "stall began s",
                                   "menu opened ms", "load", "note"]))
            for note in result["notes"]:
                print(f"{name} {width}x{height}: {note}", file=sys.stderr)
    if empty:
        shutil.rmtree(empty, ignore_errors=True)

    rows = [(r["trace"], r["size"], r.get("longest_stall_ms", "failed"), r.get("action", "; ".join(r["notes"])[:60]),
             r.get("stall_began_s", ""), r.get("load_average", ""),
             "" if r.get("slowest_menu_ms") is None else r["slowest_menu_ms"])
            for r in runs]
    print()
    print(table(rows, ["trace", "size", "longest stall ms", "action", "began s", "load avg", "slowest menu ms"]))
    print("\nbegan s: seconds after the window appeared; load avg: 1-minute load when the action ended; "
          "slowest menu ms: key or click to the menu on screen")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"program": str(args.program), "sweep": args.sweep, "app_args": args.app_args,
                       "app_env": args.app_env,
                       "atlas": str(args.atlas), "ping_ms": args.ping_ms,
                       "cores": os.cpu_count(), "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
