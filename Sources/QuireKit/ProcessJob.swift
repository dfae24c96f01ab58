import QuireImaging

/// Everything `quire process` does, as one plain value: the inputs, where the results go and
/// how pages are rendered, corrected and laid out. Executed by `Processor.run`.
public struct ProcessJob: Sendable, Equatable, Codable {
    /// Files and folders, in the order given.
    public var inputs: [String]
    /// The output folder (created when missing).
    public var outputDirectory: String
    public var renditions: RenditionOptions
    public var correction: CorrectionOptions
    /// PDF render resolution.
    public var dpi: Double
    /// Pages over this many pixels are refused from their header.
    public var maxPixels: Int
    /// Pages processed at once; nil = the number of cores.
    public var jobs: Int?
    /// The reference viewport layout.json's geometry is computed for.
    public var viewport: LayoutReport.Viewport
    /// Process only this share of the inputs (`--shard K/N`); nil = all of them.
    public var shard: ShardSelector? = nil
    /// Write only thumbnails (`--thumbnails-only`), from shrink-on-load, uncorrected.
    public var thumbnailsOnly: Bool = false

    public static let defaultMaxPixels = 250_000_000

    public init(inputs: [String], outputDirectory: String, renditions: RenditionOptions = RenditionOptions(),
                correction: CorrectionOptions = CorrectionOptions(), dpi: Double = 200,
                maxPixels: Int = ProcessJob.defaultMaxPixels, jobs: Int? = nil,
                viewport: LayoutReport.Viewport = LayoutReport.Viewport()) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.renditions = renditions
        self.correction = correction
        self.dpi = dpi
        self.maxPixels = maxPixels
        self.jobs = jobs
        self.viewport = viewport
    }
}
