#!/usr/bin/env python3
"""The classic OpenCV document-scanner recipe, as the peer the accuracy harness scores Quire against.

Resize to 500 px high, grey, Gaussian blur 5x5, Canny 75/200, external contours, the five
largest by area, the first whose approxPolyDP (2 % of the perimeter) has four points. The
time per page covers detection only (after decoding), as Quire's does.

Usage: opencv_peer.py OUT.json DATASET...   (each DATASET holds truth.json with "corners")
"""
import json
import os
import sys
import time

import cv2
import numpy as np


def detect(image):
    ratio = image.shape[0] / 500.0
    small = cv2.resize(image, (int(round(image.shape[1] / ratio)), 500))
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    edged = cv2.Canny(gray, 75, 200)
    contours, _ = cv2.findContours(edged.copy(), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    contours = sorted(contours, key=cv2.contourArea, reverse=True)[:5]
    for c in contours:
        peri = cv2.arcLength(c, True)
        approx = cv2.approxPolyDP(c, 0.02 * peri, True)
        if len(approx) == 4:
            # Contour order; the harness puts every quad in reading order the same way.
            return [[float(x * ratio), float(y * ratio)] for x, y in approx.reshape(4, 2)]
    return None


def main():
    out, datasets = sys.argv[1], sys.argv[2:]
    results = []
    for folder in datasets:
        with open(os.path.join(folder, "truth.json")) as f:
            truth = json.load(f)
        for name in sorted(truth):
            if "corners" not in truth[name]:
                continue
            image = cv2.imread(os.path.join(folder, name), cv2.IMREAD_COLOR)  # applies EXIF orientation
            if image is None:
                results.append({"source": name, "quad": None, "error": "unreadable"})
                continue
            start = time.perf_counter()
            quad = detect(image)
            ms = (time.perf_counter() - start) * 1000
            results.append({"source": name, "quad": quad, "ms": round(ms, 2)})
    with open(out, "w") as f:
        json.dump({"results": results}, f, indent=1)


if __name__ == "__main__":
    main()
