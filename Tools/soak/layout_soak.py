#!/usr/bin/env python3
"""Soak `quire layout --lines`: a seeded mix of valid, hostile and huge requests for a given time.

Checks that every request line gets exactly one reply line, in order, that each reply is one
JSON object (no inf/nan) with the request's id echoed and the expected outcome (a reply or an
error), and that the process's resident memory (VmRSS from /proc, sampled every second) does
not grow past the warm-up peak by more than --rss-growth-mib. Standard library only.

    python3 Tools/soak/layout_soak.py --quire .build/debug/quire --duration 180

Exit status 0 when every check held, 1 otherwise (the first problems are printed).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter, deque

VIEWPORTS = {"pager": (390, 844), "strip": (390, 66), "halves": (187, 812), "carousel": (375, 180), "featured": (375, 667)}
MIB = 1 << 20
LINE_CAP = MIB  # LayoutLimits.maximumRequestBytes


class Request:
    """One line to send and what its reply must be: outcome 'ok', 'error' or 'either'; the id
    the reply must echo (None: none, as for text that is not a JSON object)."""

    def __init__(self, kind, line, outcome, rid):
        self.kind, self.line, self.outcome, self.id = kind, line, outcome, rid


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


class Generator:
    """Seeded requests. Huge texts are built once and reused (building them is the slow part)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.next_id = 0
        self.cache = {}

    def rid(self):
        self.next_id += 1
        return self.next_id

    def base(self, layout=None, count=None):
        r = self.rng
        layout = layout or r.choice(list(VIEWPORTS))
        w, h = VIEWPORTS[layout]
        req = {"id": self.rid(), "layout": layout, "viewport": {"width": w, "height": h}}
        if count is None and r.random() < 0.4:
            req["aspectRatios"] = [r.choice([None, round(r.uniform(0.2, 3), 3)]) for _ in range(r.randint(0, 40))]
        else:
            req["count"] = count if count is not None else r.choice([0, 1, 3, 50, 1000, 100000])
        return req

    def valid(self):
        r = self.rng
        req = self.base()
        span = 1e5 if r.random() < 0.2 else 2000
        req["offset"] = {"x": round(r.uniform(-span, span), 2), "y": round(r.uniform(-span, span), 2)}
        if r.random() < 0.3:
            req["snap"] = {"proposedOffset": {"x": round(r.uniform(-span, span), 1), "y": 0}, "velocity": {"x": r.uniform(-3, 3), "y": 0}}
        if r.random() < 0.2:
            req["rect"] = {"x": req["offset"]["x"], "y": req["offset"]["y"], "width": r.uniform(0, 2000), "height": r.uniform(0, 2000)}
        return Request("valid", dumps(req), "ok", req["id"])

    def hostile(self):
        r = self.rng
        choice = r.randrange(9)
        if choice == 0:   # not JSON
            text = r.choice(["{not json", "[1, 2", "}", "\"unterminated", "nul", "{\"layout\":}", "\x00\x01", "{\"a\":1,}"])
            return Request("bad-json", text, "error", None)
        if choice == 1:   # a valid request cut short
            text = self.valid().line
            return Request("truncated", text[: r.randrange(1, len(text) - 1)], "error", None)
        if choice == 2:   # huge numbers, as raw text (1e999 is not a double)
            req = self.base(count=10)
            field = r.choice(["offset", "viewport", "rect", "snap"])
            big = r.choice(["1e308", "-1e308", "1.7976931348623157e308", "1e999", "-1e999", "1e10", "4e9"])
            rid = None if "999" in big else req["id"]   # 1e999 is not a double: the text is not JSON
            text = dumps(req)[:-1]
            if field == "offset":
                text += f',"offset":{{"x":{big},"y":0}}}}'
            elif field == "viewport":
                text = dumps(dict(req, viewport={"width": 1, "height": 1})).replace('"width":1,', f'"width":{big},', 1)
                return Request("huge-number", text, "error", rid)
            elif field == "rect":
                text += f',"rect":{{"x":0,"y":0,"width":{big},"height":10}}}}'
            else:
                text += f',"snap":{{"proposedOffset":{{"x":{big},"y":0}}}}}}'
            return Request("huge-number", text, "error", rid)
        if choice == 3:   # inf-like tokens: not JSON at all
            token = r.choice(["Infinity", "-Infinity", "NaN", "inf", "-inf", "nan"])
            text = dumps(self.base(count=3))[:-1] + f',"offset":{{"x":{token},"y":0}}}}'
            return Request("inf-like", text, "error", None)
        if choice == 4:   # deep nesting (past the JSON reader's depth limit, or within it in the id)
            depth = r.choice([100, 600, 5000, 100000])
            req = self.base(count=3)
            text = dumps(req)[:-1] + ',"x":' + "[" * depth + "]" * depth + "}"
            if depth > 500:
                return Request("deep-nesting", text, "error", None)
            return Request("deep-nesting", text, "error", req["id"])   # `x` is not a known field
        if choice == 5:   # wrong types and unknown fields
            req = self.base(count=3)
            req[r.choice(["offset", "viewport", "count", "layout", "viewPort", "rect"])] = r.choice(["x", [1], {"q": 1}, True, -5])
            return Request("wrong-type", dumps(req), "error", req["id"])
        if choice == 6:   # many strip updates
            req = self.base(layout="strip", count=100)
            req["parameters"] = {"updates": [{"index": i % 100, "kind": "expand", "value": 0.5} for i in range(1001)]}
            return Request("many-updates", dumps(req), "error", req["id"])
        if choice == 7:   # aspect ratios out of range
            req = self.base(layout="pager", count=None)
            req.pop("count", None)
            req["aspectRatios"] = [1, r.choice([0, -1, 1e-9, 1e9])]
            return Request("bad-ratio", dumps(req), "error", req["id"])
        req = self.base(count=5)   # an id that is itself huge or deep: echoed as JSON
        text = dumps(req).replace(f'"id":{req["id"]}', '"id":[1e308,' + "[" * 200 + "]" * 200 + "]", 1)
        return Request("odd-id", text, "ok", [1e308, json.loads("[" * 200 + "]" * 200)])

    HUGE_KINDS = 7

    def huge(self, choice=None):
        r = self.rng
        choice = r.randrange(self.HUGE_KINDS) if choice is None else choice
        if choice == 0:   # a valid request padded to several MB: over the line cap
            size = r.choice([2, 4, 8]) * MIB
            key = ("pad", size)
            if key not in self.cache:
                self.cache[key] = " " * size
            return Request("multi-mb-line", dumps(self.base(count=3)) + self.cache[key], "error", None)
        if choice == 1:   # 16 MB of array: the O(n^2) splitter never answered this
            key = "16mb"
            if key not in self.cache:
                self.cache[key] = '{"layout":"strip","viewport":{"width":390,"height":66},"aspectRatios":[' + ",".join(["0.75"] * (16 * MIB // 5)) + "]}"
            return Request("16mb-line", self.cache[key], "error", None)
        if choice == 2:   # 10^7 items
            req = self.base(count=10_000_000)
            return Request("count-1e7", dumps(req), "error", req["id"])
        if choice == 3:   # a rect covering a million items
            req = self.base(layout=r.choice(["pager", "strip", "halves", "featured"]), count=1_000_000)   # the carousel shows 3
            req["rect"] = {"x": -5e8, "y": -5e8, "width": 1e9, "height": 1e9}
            return Request("covering-rect", dumps(req), "error", req["id"])
        if choice == 4:   # the largest accepted reply: 10,000 pager pages of 1 pt
            req = self.base(layout="pager", count=1_000_000)
            req["viewport"] = {"width": 1, "height": 1}
            req["rect"] = {"x": 0.5 + r.randrange(0, 900_000), "y": 0, "width": 9999, "height": 1}
            return Request("max-reply", dumps(req), "ok", req["id"])
        if choice == 5:   # an inline ratio list just under the line cap
            key = "ratios"
            if key not in self.cache:
                self.cache[key] = [round(0.5 + (i % 97) / 100, 2) for i in range(LINE_CAP // 6)]
            req = self.base(layout=r.choice(["pager", "strip"]), count=None)
            req.pop("count", None)
            req["aspectRatios"] = self.cache[key]
            req["offset"] = {"x": r.uniform(0, 1e6), "y": 0}
            line = dumps(req)
            assert len(line) <= LINE_CAP, len(line)
            return Request("near-cap-line", line, "ok", req["id"])
        req = self.base(count=1_000_000)   # a million items, an ordinary query
        req["offset"] = {"x": r.uniform(0, 1e8), "y": r.uniform(0, 1e6)}
        return Request("count-1e6", dumps(req), "ok", req["id"])

    def next(self):
        x = self.rng.random()
        if x < 0.6:
            return self.valid()
        if x < 0.92:
            return self.hostile()
        return self.huge()


def no_constants(name):
    raise ValueError(f"non-JSON constant {name}")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def check_reply(req, text):
    """The problem with `text` as the reply to `req`, or None."""
    try:
        reply = json.loads(text, parse_constant=no_constants)
    except ValueError as e:
        return f"not JSON ({e}): {text[:200]}"
    if not isinstance(reply, dict):
        return f"not an object: {text[:200]}"
    is_error = "error" in reply
    if is_error:
        err = reply["error"]
        if not (isinstance(err, dict) and isinstance(err.get("field"), str) and isinstance(err.get("message"), str)):
            return f"an error without field and message: {text[:200]}"
    if req.outcome == "ok" and is_error:
        return f"an error for a valid request: {text[:300]}"
    if req.outcome == "error" and not is_error:
        return f"no error for a request that must fail: {text[:200]}"
    if reply.get("id") != req.id:
        return f"id {reply.get('id')!r:.80} where {req.id!r:.80} was expected"
    if not is_error and len(reply.get("items", [])) > 10_000:
        return f"{len(reply['items'])} items in one reply"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quire", default=os.environ.get("QUIRE_BIN", ".build/debug/quire"), help="the quire binary")
    ap.add_argument("--duration", type=float, default=180, help="seconds of sending (default 180)")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--warmup", type=float, default=None, help="warm-up seconds (default a fifth of --duration, at least 3)")
    ap.add_argument("--rss-growth-mib", type=float, default=64, help="allowed RSS growth over the warm-up peak (MiB)")
    ap.add_argument("--in-flight", type=int, default=16, help="requests sent ahead of their replies")
    args = ap.parse_args()
    warmup = args.warmup if args.warmup is not None else max(3.0, args.duration / 5)

    proc = subprocess.Popen([args.quire, "layout", "--lines"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    gen = Generator(args.seed)
    pending = deque()
    lock = threading.Lock()
    slots = threading.Semaphore(args.in_flight)
    problems = []
    sent = Counter()
    answered = [0]
    samples = []   # (seconds since start, RSS KiB)
    start = time.monotonic()
    stop = threading.Event()

    def writer():
        try:
            # One of each huge kind first, inside the warm-up.
            queue = deque(gen.huge(choice) for choice in range(gen.HUGE_KINDS))
            while time.monotonic() - start < args.duration and not problems:
                req = queue.popleft() if queue else gen.next()
                slots.acquire()
                with lock:
                    pending.append(req)
                sent[req.kind] += 1
                proc.stdin.write(req.line.encode() + b"\n")
                proc.stdin.flush()
        except BrokenPipeError:
            problems.append("quire closed its input (did it crash?)")
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    def reader():
        for raw in proc.stdout:
            text = raw.decode("utf-8", "replace").rstrip("\n")
            with lock:
                req = pending.popleft() if pending else None
            slots.release()
            answered[0] += 1
            if req is None:
                problems.append(f"a reply with no request: {text[:200]}")
                continue
            problem = check_reply(req, text)
            if problem:
                problems.append(f"request {answered[0]} ({req.kind}): {problem}")

    def sampler():
        while not stop.is_set():
            kib = rss_kib(proc.pid)
            if kib is not None:
                samples.append((time.monotonic() - start, kib))
            stop.wait(1.0)

    threads = [threading.Thread(target=f, daemon=True) for f in (writer, reader, sampler)]
    for t in threads:
        t.start()
    threads[0].join()
    threads[1].join(timeout=120)
    stop.set()
    status = proc.wait(timeout=60)
    total = sum(sent.values())
    if threads[1].is_alive():
        problems.append("replies stopped coming (hang)")
    if status != 0:
        problems.append(f"quire exited with status {status}")
    if answered[0] != total:
        problems.append(f"{total} requests sent, {answered[0]} replies")

    warm = [kib for t, kib in samples if t <= warmup]
    later = [kib for t, kib in samples if t > warmup]
    elapsed = time.monotonic() - start
    print(f"layout soak: {total} requests in {elapsed:.0f} s ({total / max(elapsed, 1e-9):.0f}/s), {answered[0]} replies")
    print("  kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(sent.items())))
    if warm and later:
        warm_peak, later_peak = max(warm), max(later)
        print(f"  RSS MiB: warm-up peak {warm_peak / 1024:.1f} (first {warmup:.0f} s), after warm-up peak "
              f"{later_peak / 1024:.1f}, last {later[-1] / 1024:.1f}, {len(samples)} samples")
        if later_peak > warm_peak + args.rss_growth_mib * 1024:
            problems.append(f"RSS grew from {warm_peak / 1024:.1f} MiB to {later_peak / 1024:.1f} MiB "
                            f"(bound: +{args.rss_growth_mib:g} MiB)")
    elif args.duration > warmup:
        problems.append("too few RSS samples")
    for p in problems[:10]:
        print("  PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
