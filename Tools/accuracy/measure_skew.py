# Measures the skew of a scan at full resolution (up to 2500 px long side) for Tools/accuracy/real-skew.tsv:
# adaptive threshold, 3 % margins dropped, then the rotation whose row profile has the sharpest steps,
# searched every 0.5, 0.1 and 0.01 degree over +/-20. Prints Quire's convention (positive = content
# leaning counter-clockwise). Usage: python3 measure_skew.py IMAGE... (opencv-python-headless, numpy).
import cv2, numpy as np, sys
def score(bw, a):
    h, w = bw.shape
    M = cv2.getRotationMatrix2D((w/2, h/2), a, 1.0)
    r = cv2.warpAffine(bw, M, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
    s = r.sum(axis=1).astype(np.float64)
    return ((s[1:]-s[:-1])**2).sum()
for p in sys.argv[1:]:
    im = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
    h, w = im.shape; s = 2500 / max(h, w)
    if s < 1: im = cv2.resize(im, (int(w*s), int(h*s)), interpolation=cv2.INTER_AREA)
    bw = cv2.adaptiveThreshold(im, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 41, 20).astype(np.float32)
    # crop 3% margins so scanner edges do not dominate
    h, w = bw.shape; m = int(0.03*min(h,w)); bw = bw[m:h-m, m:w-m]
    best = max(np.arange(-20, 20.01, 0.5), key=lambda a: score(bw, a))
    best = max(np.arange(best-0.6, best+0.6, 0.1), key=lambda a: score(bw, a))
    best = max(np.arange(best-0.12, best+0.12, 0.01), key=lambda a: score(bw, a))
    # cv2 angle positive = counter-clockwise turn straightens => content leaned clockwise => Quire negative
    print(p.split('/')[-1], '%.3f' % (-best))
