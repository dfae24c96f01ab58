/* Quire viewer: easings and the animator of docs/layout-formulas.md#sync-and-animations, plus the strip
 * animations (scroll begin/end, move, collapse, delete) sampled at a progress, exactly as
 * QuireLayout's StripAnimation.frame does. Classic script: adds Quire.animations. */
(function (Q) {
  'use strict';
  function clamp01(x) { return Math.min(1, Math.max(0, x)); }
  var easings = {
    linear: function (x) { return clamp01(x); },
    /* easeInOut(x) = 2x² for x < ½, otherwise −2x² + 4x − 1 */
    easeInOut: function (x) { x = clamp01(x); return x < 0.5 ? 2 * x * x : -2 * x * x + 4 * x - 1; }
  };

  /* Runs `tick(eased)` on every animation frame: p = min(1, elapsed/duration); completes on
   * the first tick where p ≥ 1 (zero duration: one tick with p = 1). */
  function animate(duration, easing, tick, done) {
    var start = null, cancelled = false;
    function frame(now) {
      if (cancelled) return;
      if (start === null) start = now;
      var p = duration > 0 ? Math.min(1, (now - start) / 1000 / duration) : 1;
      tick(easing(p), p);
      if (p >= 1) { if (done) done(); } else requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
    return { cancel: function () { cancelled = true; } };
  }

  /* The strip animations. Each has a duration, an easing and frame(strip, progress, offset,
   * rate) -> {offset, expandingRate, updates} (updates: {index: [[kind, value, dir]]}). */
  function scroll(from, to) {
    return { kind: 'scroll', duration: 0.15 * Math.abs(from - to), easing: easings.easeInOut,
      frame: function (strip, p, offset) {
        return { offset: offset, expandingRate: from + (to - from) * this.easing(p), updates: {} };
      } };
  }
  function move(strip, offset, to) {
    var from = strip.nearestIndex(offset);
    if (from === null || to < 0 || to >= strip.count) return null;
    return { kind: 'move', duration: 0.3, easing: easings.easeInOut, from: from, to: to,
      frame: function (s, p) {
        var eased = this.easing(p);
        var x1 = s.offsetForIndex(to);
        if (p >= 1) return { offset: x1, expandingRate: 1, updates: {} };
        var u = {};
        (u[to] = u[to] || []).push(['expand', eased]);
        (u[from] = u[from] || []).push(['expand', 1 - eased]); /* written second: wins if equal */
        return { offset: offset + (x1 - offset) * eased, expandingRate: 0, updates: u };
      } };
  }
  function collapse(index) {
    return { kind: 'collapse', duration: 0.15, easing: easings.linear,
      frame: function (s, p, offset, rate) {
        var u = {}; u[index] = [['collapse', this.easing(p)]];
        return { offset: offset, expandingRate: rate, updates: u };
      } };
  }
  function deletion(strip, index) {
    var dir = index === strip.count - 1 ? 'left' : 'right';
    return { kind: 'delete', duration: 0.15, easing: easings.linear, direction: dir,
      frame: function (s, p, offset, rate) {
        var t = this.easing(p), u = {};
        u[index] = [['collapse', 1], ['delete', t, dir]];
        var n = dir === 'left' ? index - 1 : index + 1;
        if (n >= 0 && n < s.count) u[n] = [['expand', t]];
        return { offset: offset, expandingRate: rate, updates: u };
      } };
  }

  Q.animations = { easings: easings, animate: animate, scroll: scroll, move: move,
    collapse: collapse, deletion: deletion };
})(window.Quire = window.Quire || {});
