internal import CVipsShim

extension VIPSRuntime {
    /// Turns libvips's own warnings on stderr ("VIPS-WARNING **: not enough data", printed
    /// from worker threads, often dozens per broken file) off or back on. A caller that
    /// reports each failure itself silences them so the user sees one clear line per file.
    public static func setWarningsSilenced(_ silenced: Bool) {
        _ = try? start()
        cvips_set_warnings_silenced(silenced ? 1 : 0)
    }
}
