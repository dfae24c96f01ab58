/// The bounds `quire layout` puts on a request and on its reply (docs/layouts.md#limits).
///
/// A request comes from outside: without bounds a number near 1e308 overflows the formulas to
/// infinity, a count of 10^7 or a rect covering every item builds gigabytes, and a request
/// line of many megabytes is buffered whole. Each bound is far beyond what a viewer needs, so
/// a real client never meets one; a request past one gets the usual error object naming the
/// field, and `quire layout --lines` goes on with the next line.
public enum LayoutLimits {
    /// The largest magnitude of any number in a request (points, velocities, parameters):
    /// 10^9 pt is 25,000 km of scrolling, and sums of a few such numbers stay exact in a Double.
    public static let maximumMagnitude = 1e9
    /// `maximumMagnitude` as error messages write it (a test keeps the two equal).
    package static let magnitudeText = "-1e9...1e9"

    /// The largest viewport side in points: 100,000 pt is over 30 times the widest screen,
    /// and keeps a million items' content size (side × count) finite and exact.
    public static let maximumViewportSide = 100_000.0

    /// The most items a request may lay out: a 1,000,000-page document is the largest the
    /// viewer and `make bench-layout` are sized for; a page list of this size costs 24 MB.
    public static let maximumItemCount = 1_000_000

    /// The aspect ratios (width / height) a request may give: 1:10,000 to 10,000:1 holds any
    /// real page or receipt, and keeps `side / ratio` within the coordinate bound.
    public static let aspectRatioRange = 1e-4...1e4
    /// `aspectRatioRange` as error messages write it (a test keeps the two equal).
    package static let aspectRatioText = "1e-4...1e4"

    /// The most items one reply may return: a reply of 10,000 items is about 4 MB of JSON,
    /// hundreds of screens of thumbnails; a rect meeting more is refused, so a reply's memory
    /// is bounded whatever the item count.
    public static let maximumReplyItems = 10_000

    /// The most strip `updates` one request may give: each is an animated cell, and a frame's
    /// cost grows with their square (a screen animates a handful).
    public static let maximumUpdates = 1_000

    /// The longest request in bytes (one line with `--lines`): 1 MiB holds an inline list of
    /// about 150,000 aspect ratios; larger documents use `count` or `pagesFrom`. A longer
    /// line is answered with an error and skipped without being buffered.
    public static let maximumRequestBytes = 1 << 20
}
