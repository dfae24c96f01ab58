#!/usr/bin/env python3
"""Builds the `quire layout` request corpus that pins the replies across refactors.

Writes Tests/Fixtures/layout-catalogue/requests.jsonl: every request in
Tests/Fixtures/fuzz/layout, every request line in docs/*.md and README.md, and for each
layout every parameter set to a non-default value, to a value of the wrong type, to a value
outside its bounds, plus unknown names. `LayoutEquivalenceTests` answers each line and
compares with replies.jsonl, which was written once by the `quire layout --lines` built
before the layout catalogue (`--replies QUIRE` rewrites it with a given binary). A
`pagesFrom` path starts with {FOLDER}, which stands for this fixture folder (layout.json there
holds five pages processed by `quire process`).
"""
import json, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests/Fixtures/layout-catalogue"

BASE = {
    "pager": {"viewport": {"width": 390, "height": 844}, "aspectRatios": [0.75, 2, 0.5, None], "offset": {"x": 200, "y": 0}},
    "strip": {"viewport": {"width": 390, "height": 66}, "aspectRatios": [0.75, 0.75, 2, 0.5, None], "offset": {"x": -120, "y": 0}},
    "halves": {"viewport": {"width": 187, "height": 812}, "count": 8, "offset": {"x": 0, "y": -100}},
    "carousel": {"viewport": {"width": 375, "height": 180}, "count": 5, "offset": {"x": 500, "y": 0}},
    "featured": {"viewport": {"width": 375, "height": 667}, "count": 12, "offset": {"x": 0, "y": 300}},
}
# Each parameter with a non-default value that changes the reply, as the docs name them.
VALUES = {
    "pager": {"offsetBetweenCells": 10, "imageParallaxFactor": 0.7},
    "strip": {"defaultAspectRatio": 1.5, "spacing": 7, "focusedSpacing": 30, "maxAspectRatio": 1.2,
              "minAspectRatio": 0.6, "clampsAspectRatios": True, "deletionClosesSpacing": False,
              "expandingRate": 0.4,
              "updates": [{"index": 1, "kind": "expand", "value": 0.5},
                          {"index": 2, "kind": "delete", "value": 0.3, "direction": "right"},
                          {"index": 3, "kind": "collapse", "value": 0.2}]},
    "halves": {"orientation": "right", "pizzaSize": 250, "criticalOffsetFromCenter": 150, "scaleFactor": 0.5,
               "spaceBetweenHalves": 6, "headerHeight": 50, "headerVerticalOffset": 20,
               "headerTranslationFactor": 10, "layoutMargin": 12, "cellZIndex": 1, "headerZIndex": 5},
    "carousel": {"centerIndex": 3, "sideOffset": 20, "spacing": 10, "insetLeft": 10, "insetRight": 12, "cornerRadius": 4},
    "featured": {"standardHeight": 90, "featuredHeight": 300, "dragOffset": 150, "coverAlphaMax": 0.9,
                 "coverAlphaMin": 0.1, "minimumTitleScale": 0.4},
}
BAD = ["x", True, None, 1.5, -1, 0, 2e9, -2e9, [], {}, "left", 1e9]


def folder_paths(line):
    """The request with a relative `pagesFrom` under {FOLDER}."""
    r = json.loads(line)
    if isinstance(r, dict) and isinstance(r.get("pagesFrom"), str) and not r["pagesFrom"].startswith("/"):
        line = line.replace(json.dumps(r["pagesFrom"]), json.dumps("{FOLDER}/" + r["pagesFrom"]))
    return line


def lines():
    for f in sorted((ROOT / "Tests/Fixtures/fuzz/layout").glob("*.json")):
        yield folder_paths(f.read_text().strip())
    for f in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for line in f.read_text().splitlines():
            s = line.strip().removeprefix("echo '").split("' |")[0]
            if s.startswith('{"layout"'):
                yield s
    for name, base in BASE.items():
        def req(**extra):
            r = {"layout": name, **base, **extra}
            return json.dumps(r, separators=(",", ":"), sort_keys=True)
        yield req()
        yield req(snap={"proposedOffset": {"x": 300, "y": 200}, "velocity": {"x": 0.5, "y": -0.5}})
        yield req(rect={"x": -500, "y": -500, "width": 3000, "height": 3000})
        yield req(parameters=VALUES[name])
        yield req(parameters={"noSuchParameter": 1})
        yield req(parameters={"zzz": 1, "aaa": 2})
        yield req(parameters=[])
        yield req(parameters="x")
        for key, value in VALUES[name].items():
            yield req(parameters={key: value})
            yield req(parameters={key: value}, snap={"proposedOffset": {"x": 400, "y": 400}})
            for bad in BAD:
                yield req(parameters={key: bad})
        for a, b in zip(list(VALUES[name])[:-1], list(VALUES[name])[1:]):
            yield req(parameters={a: "bad", b: "bad"})
    strip = BASE["strip"]
    for update in [{"index": 1}, {"index": 1, "kind": "x", "value": 1}, {"index": 1.5, "kind": "expand", "value": 1},
                   {"index": 1, "kind": "delete", "value": 1, "direction": "up"}, {"index": 1, "kind": "expand", "value": 1, "extra": 0},
                   "x", {"index": 99, "kind": "expand", "value": 1}, {"index": -3, "kind": "collapse", "value": "1"}]:
        yield json.dumps({"layout": "strip", **strip, "parameters": {"updates": [update]}}, separators=(",", ":"))
    for anim in [{"kind": "move", "index": 2, "progress": 0.3}, {"kind": "delete", "index": 1, "phase": "collapse", "progress": 0.6},
                 {"kind": "delete", "phase": "delete", "progress": 0.6}, {"kind": "delete", "progress": 0.6},
                 {"kind": "scrollBegin", "progress": 0.5}, {"kind": "scrollEnd", "progress": 0.5}]:
        yield json.dumps({"layout": "strip", **strip, "parameters": {"expandingRate": 0.5}, "animation": anim}, separators=(",", ":"))
    for name in BASE:
        yield json.dumps({"layout": name, **BASE[name], "animation": {"kind": "move", "index": 1, "progress": 0.5}}, separators=(",", ":"))
    yield '{"layout":"carousel","viewport":{"width":375,"height":180},"count":5,"parameters":{"sideOffset":200}}'
    for name in BASE:
        yield json.dumps({"layout": name, "pagesFrom": "{FOLDER}/layout.json", "offset": {"x": 100, "y": 100}}, separators=(",", ":"))
        yield json.dumps({"layout": name, "pagesFrom": "{FOLDER}/layout.json", "viewport": {"width": 300, "height": 500},
                          "snap": {"proposedOffset": {"x": 250, "y": 250}}}, separators=(",", ":"))
    yield '{"layout":"nope","count":1,"viewport":{"width":1,"height":1}}'


def main():
    requests = list(dict.fromkeys(lines()))
    (OUT / "requests.jsonl").write_text("".join(r + "\n" for r in requests))
    if len(sys.argv) == 3 and sys.argv[1] == "--replies":
        folder = str(OUT)
        text = "".join(r.replace("{FOLDER}", folder) + "\n" for r in requests)
        run = subprocess.run([sys.argv[2], "layout", "--lines"], input=text, capture_output=True, text=True, check=True)
        (OUT / "replies.jsonl").write_text(run.stdout.replace(folder, "{FOLDER}"))
    print(f"{len(requests)} requests")


main()
