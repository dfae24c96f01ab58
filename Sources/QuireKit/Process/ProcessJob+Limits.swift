import QuireLayout

extension ProcessJob {
    /// The bounds `quire process` puts on its options, shared with the job record it reads
    /// back (`RecordedBatch.read`, what `quire view --serve` reruns), so a job.json from
    /// elsewhere is held to what the command line accepts.
    public enum Limits {
        /// A preview or thumbnail side in pixels: just under JPEG's largest (65,535).
        public static let renditionSide = 1...65_500
        /// JPEG and WebP quality.
        public static let quality = 1...100
        /// The resolution PDF pages are rendered at (`--dpi`): under 10 a page is a few dozen
        /// pixels; at 2400 an A4 page is already about 20,000 pixels a side.
        public static let pdfDPI = 10.0...2400.0
        /// Worker threads (`--jobs`): far more than any machine Quire runs on has cores.
        public static let jobs = 1...256
    }

    /// The first option out of range, as `job.FIELD: expected ..., found ...` (the JSON path in
    /// job.json); nil when every one is in.
    var rangeProblem: String? {
        func int(_ field: String, _ value: Int, _ range: ClosedRange<Int>) -> String? {
            range.contains(value)
                ? nil : "job.\(field): expected an integer in \(range.lowerBound)...\(range.upperBound), found \(value)"
        }
        func number(_ field: String, _ value: Double, _ range: ClosedRange<Double>) -> String? {
            range.contains(value)
                ? nil
                : "job.\(field): expected \(LayoutReportRanges.text(range)), found \(LayoutReportRanges.number(value))"
        }
        let side = LayoutReportRanges.viewportSide
        let checks: [() -> String?] = [
            { int("renditions.previewSize", renditions.previewSize, Limits.renditionSide) },
            { int("renditions.thumbnailSize", renditions.thumbnailSize, Limits.renditionSide) },
            { int("renditions.quality", renditions.quality, Limits.quality) },
            { number("dpi", dpi, Limits.pdfDPI) },
            { int("maxPixels", maxPixels, 1...Int(PixelCount.limit) - 1) },
            { jobs.flatMap { int("jobs", $0, Limits.jobs) } },
            { number("viewport.width", viewport.width, side) },
            { number("viewport.height", viewport.height, side) },
            { number("viewport.stripHeight", viewport.stripHeight, side) },
            { pageTimeout.flatMap { number("pageTimeout", $0, 0...Double.greatestFiniteMagnitude) } },
            { shard.flatMap { int("shard.count", $0.count, 1...ShardRun.maximumShardCount) } },
            { shard.flatMap { int("shard.index", $0.index, 1...max(1, $0.count)) } }
        ]
        for check in checks {
            if let problem = check() { return problem }
        }
        return nil
    }
}
