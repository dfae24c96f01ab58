#!/usr/bin/env python3
"""The classic OpenCV document scanner, run the way users run it: one Python process, a loop.

For each capture: cv2.imread (EXIF orientation applied), detection on a copy 500 px high
(grey, Gaussian blur, Canny, findContours, the largest contour whose approxPolyDP has 4
points; fallback: the whole image), getPerspectiveTransform + warpPerspective of the
full-resolution image, then imwrite of the page, a preview fitting 1600 px and a thumbnail
fitting 256 px (JPEG quality 85), as OUT/pages|previews|thumbs/NNNN.jpg.

Usage: opencv_scanner.py OUT FILE...
"""
import os
import sys

import cv2
import numpy as np

JPEG = [cv2.IMWRITE_JPEG_QUALITY, 85]


def order_points(pts):
    rect = np.zeros((4, 2), dtype="float32")
    s = pts.sum(axis=1)
    rect[0] = pts[np.argmin(s)]
    rect[2] = pts[np.argmax(s)]
    d = np.diff(pts, axis=1)
    rect[1] = pts[np.argmin(d)]
    rect[3] = pts[np.argmax(d)]
    return rect


def four_point_transform(image, pts):
    rect = order_points(pts)
    (tl, tr, br, bl) = rect
    width = int(max(np.linalg.norm(br - bl), np.linalg.norm(tr - tl)))
    height = int(max(np.linalg.norm(tr - br), np.linalg.norm(tl - bl)))
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], dtype="float32")
    m = cv2.getPerspectiveTransform(rect, dst)
    return cv2.warpPerspective(image, m, (width, height))


def find_page(image):
    ratio = image.shape[0] / 500.0
    small = cv2.resize(image, (int(image.shape[1] / ratio), 500))
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    edged = cv2.Canny(gray, 75, 200)
    cnts, _ = cv2.findContours(edged.copy(), cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for c in sorted(cnts, key=cv2.contourArea, reverse=True)[:5]:
        peri = cv2.arcLength(c, True)
        approx = cv2.approxPolyDP(c, 0.02 * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype("float32") * ratio
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype="float32")


def fit(image, box):
    h, w = image.shape[:2]
    scale = min(1.0, box / max(w, h))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def main():
    out, files = sys.argv[1], sys.argv[2:]
    for sub in ("pages", "previews", "thumbs"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    failed = 0
    for n, path in enumerate(files, 1):
        image = cv2.imread(path)
        if image is None:
            print(f"opencv_scanner: cannot read {path}", file=sys.stderr)
            failed += 1
            continue
        page = four_point_transform(image, find_page(image))
        name = f"{n:04d}.jpg"
        cv2.imwrite(os.path.join(out, "pages", name), page, JPEG)
        preview = fit(page, 1600)
        cv2.imwrite(os.path.join(out, "previews", name), preview, JPEG)
        cv2.imwrite(os.path.join(out, "thumbs", name), fit(preview, 256), JPEG)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
