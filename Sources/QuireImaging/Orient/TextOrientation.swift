import Foundation
import TesseractBridge
import VipsBridge

/// Which way a page's text reads: the clockwise quarter turn that makes it upright.
public struct OrientationGuess: Sendable, Hashable, Codable {
    /// Degrees to turn the page clockwise: 0, 90, 180 or 270.
    public var rotate: Int
    /// The detector's confidence (Tesseract's orientation confidence: about 0-2 for a guess,
    /// 5 and more for a page of text read clearly; the line look's, `LineOrientation.Finding`,
    /// 2 and more when it answers).
    public var confidence: Double
    /// How sure the detector is of the script it read the page in (Tesseract's script
    /// confidence); nil when it did not say. Printed text scores 1 and more; handwriting, whose
    /// glyphs match no script, scores under 0.7 and its way up is a guess (see `OrientationPolicy`).
    public var scriptConfidence: Double?

    /// A guess that turning the page `rotate` degrees clockwise makes it upright.
    public init(rotate: Int, confidence: Double, scriptConfidence: Double? = nil) {
        self.rotate = ((rotate % 360) + 360) % 360
        self.confidence = confidence
        self.scriptConfidence = scriptConfidence
    }
}

/// Tells which way up a page is. Behind a protocol so tests and machines without Tesseract
/// can run without it.
public protocol OrientationDetector: Sendable {
    /// The guess for a display-ready page, or nil when the page has too little text to tell.
    func guess(_ page: VIPSImage) throws -> OrientationGuess?
    /// The guess for a straightened scan (`guess` unless the detector reads scans its own way).
    func guessScan(_ page: VIPSImage) throws -> OrientationGuess?
}

extension OrientationDetector {
    public func guessScan(_ page: VIPSImage) throws -> OrientationGuess? { try guess(page) }
}

/// First a look at the page's text lines (`LineOrientation`, tens of milliseconds), and only
/// when that is not sure Tesseract's orientation and script detection (what
/// `tesseract IMAGE stdout --psm 0 -l osd` reports), run in this process by an `osd` engine
/// loaded once per page in flight (`TesseractEngines`) on a grey copy of the page at most
/// `longestSide` px long, handed over in memory: the standard way to find pages scanned
/// sideways or upside down (OCRmyPDF's `--rotate-pages` does the same). The copy must keep
/// the text large (too small, an A4 page reads upside down with high confidence:
/// docs/correction-scans.md, "Pages the right way up"; `make accuracy-orientation`).
/// Debian's `libtesseract5` with its `osd` data provides it, or Quire's own build of it
/// (docs/install.md).
public struct TesseractOSD: OrientationDetector {
    /// The longest side of the copy Tesseract reads.
    public static let longestSide = 3200
    /// Pages whose longest side is under this are enlarged for Tesseract.
    public static let smallSide = 1600
    /// Decimal places a confidence is kept to: the `tesseract --psm 0` report's, so records
    /// read the same as when the command was run (and runs agree to the last digit).
    static let confidenceDecimals = 2.0

    /// The detector when Tesseract's `osd` model is installed (and `QUIRE_NO_TESSERACT` is not
    /// set); nil otherwise (pages then keep their orientation).
    public static let installed: TesseractOSD? = TesseractEngines.detectsOrientation ? TesseractOSD() : nil

    public func guess(_ page: VIPSImage) throws -> OrientationGuess? { try guess(page, scan: false) }

    /// `guess` for a straightened scan: where the look is sure of the axis only, a strong
    /// leptonica reading against the edge side answers (`scanUpDownGuess`) before Tesseract.
    public func guessScan(_ page: VIPSImage) throws -> OrientationGuess? { try guess(page, scan: true) }

    /// `guess`, with the scans' own reading (`scanUpDownGuess`) when `scan`.
    func guess(_ page: VIPSImage, scan: Bool) throws -> OrientationGuess? {
        // A page without printed glyphs is not worth Tesseract's time: it would answer
        // "Too few characters" (confidence 0) after hundreds of milliseconds.
        let look = try StageProfile.measure("2e text check") {
            try PageCorrector.gray(page, longSide: TextPresence.longSide)
        }
        guard
            let threshold = TextPresence.readableTextThreshold(gray: look.gray, width: look.width, height: look.height)
        else {
            return OrientationGuess(rotate: 0, confidence: 0)
        }
        // Lines of printed text usually tell their own way up, in tens of milliseconds on the
        // same copy (from the text check's threshold); Tesseract (hundreds of milliseconds to
        // seconds) is asked only when they do not.
        let lines = StageProfile.measure("2e line look") {
            LineOrientation.look(gray: look.gray, width: look.width, height: look.height, threshold: threshold)
        }
        StageProfile.note(Self.describe(lines.finding, look))
        if let found = lines.finding, found.isSure {
            return OrientationGuess(rotate: found.rotate, confidence: found.confidence)
        }
        // Leptonica's reading along the look's axis, read at most once for the steps below.
        let upDown = lines.finding.map { found in
            UpDownOnce { StageProfile.measure("2e up or down") { Self.upDown(found, look) } }
        }
        // Sure of the axis, not of up or down: leptonica's count of ascenders and descenders
        // settles it when it clearly agrees with the look's baseline statistics.
        if let found = lines.finding, let upDown, let guess = Self.upDownGuess(found, upDown: upDown.callAsFunction) {
            return guess
        }
        // On a scan, a strong leptonica reading settles it against the edge side.
        if scan, let found = lines.finding, let upDown,
            let guess = Self.scanUpDownGuess(found, upDown: upDown.callAsFunction)
        {
            return guess
        }
        // Leptonica silent: the look's edge side alone settles it when it is clear.
        if let found = lines.finding, let upDown, let guess = Self.unopposedGuess(found, upDown: upDown.callAsFunction)
        {
            return guess
        }
        // Sure of the axis only: Tesseract is left to tell up from down along it, which a short
        // reading does (`axisGuess`), with no whole-page reading after it.
        if let found = lines.finding, found.isAxisSure {
            let crop = try StageProfile.measure("2e tesseract axis") {
                try tesseractGuess(
                    page, boxes: lines.boxes, copyWidth: look.width, copyHeight: look.height,
                    characters: Self.axisCropCharacters)
            }
            StageProfile.note("tesseract axis \(Self.describe(crop))")
            guard let crop, let upDown else { return nil }
            let guess = Self.axisGuess(found, crop, upDown: upDown.callAsFunction)
            let doubted = OrientationPolicy.turns(guess) && Self.isDoubted(found, crop, upDown: upDown.callAsFunction)
            return try axisReadAgain(
                page, found: found, crop: crop, guess: guess, doubted: doubted, boxes: lines.boxes,
                copyWidth: look.width, copyHeight: look.height)
        }
        let crop = try StageProfile.measure("2e tesseract") {
            try tesseractGuess(page, boxes: lines.boxes, copyWidth: look.width, copyHeight: look.height)
        }
        StageProfile.note("tesseract crop \(Self.describe(crop))")
        guard let crop, Self.fallsBack(crop), !lines.boxes.isEmpty, !Self.skipsFallback(lines.finding) else {
            return crop
        }
        let whole = try StageProfile.measure("2e tesseract fallback") { try fallbackGuess(page, crop: crop) }
        StageProfile.note("tesseract fallback \(Self.describe(whole))")
        return whole
    }

    /// The look's finding and leptonica's up-or-down reading along its axis, for the call trace
    /// (`StageProfile.note`): leptonica is read here even where the detector does not ask it.
    static func describe(_ found: LineOrientation.Finding?, _ look: (gray: [UInt8], width: Int, height: Int))
        -> String
    {
        guard let found else { return "look none" }
        let upDown = upDown(found, look)
        return "look rotate \(found.rotate) votes \(found.votes) share \(found.directionShare) pieces "
            + "\(found.linePieces) margin \(found.edgeMargin) axisSure \(found.isAxisSure) sure \(found.isSure) "
            + "updown \(upDown.map { "\($0)" } ?? "none")"
    }

    /// A Tesseract reading's per-orientation scores (by counter-clockwise quarter) and the
    /// characters they sum over, for the call trace; noted before the reading itself.
    static func describeScores(_ found: ScriptOrientation?) -> String {
        guard let found else { return "glyphs none" }
        return "glyphs scores \(found.scores.map { "\($0)" }.joined(separator: ",")) characters \(found.characters)"
    }

    /// A Tesseract reading for the call trace.
    static func describe(_ guess: OrientationGuess?) -> String {
        guard let guess else { return "none" }
        return
            "rotate \(guess.rotate) conf \(guess.confidence) script \(guess.scriptConfidence.map { "\($0)" } ?? "none")"
    }

    /// Leptonica's up-or-down confidence (`TextUpDown`) a page needs to be answered without
    /// Tesseract when the look is sure of its axis only. Fitted on half the sources of the real
    /// photos turned four ways with the margin below kept (`Tools/accuracy/fit_up_down.py`;
    /// docs/benchmarks.md, "the up/down bar fitted"): 4 answered 26 held-out copies, none
    /// wrong, where leptonica's own bar of 8 answered 12.
    static let minimumUpDown = 4.0
    /// ... and the look's edge margin must be at least this, on the same side: two readings of
    /// different evidence (ink corners, baseline agreement) that agree. Under it the look's
    /// side is barely measured (a handwritten page read the wrong way at 0.00:
    /// docs/correction-photos.md).
    static let minimumAgreeingMargin = 0.04

    /// The look's turn when it is sure of the axis (`isAxisSure`) and leptonica's reading of
    /// the `look` copy, turned so the lines run across, agrees on up or down with the edge
    /// margin, both clearly; nil otherwise (Tesseract is asked). Its confidence is the
    /// look's scale: each reading over its bar, the smaller, times the look's sure confidence.
    static func upDownGuess(_ found: LineOrientation.Finding, _ look: (gray: [UInt8], width: Int, height: Int))
        -> OrientationGuess?
    {
        upDownGuess(found, upDown: { upDown(found, look) })
    }

    /// `upDownGuess` with leptonica's reading (`upDown`) asked only when the look's finding
    /// passes the cheap tests, so one reading can serve every step of a page's guess.
    static func upDownGuess(_ found: LineOrientation.Finding, upDown: () -> Double?) -> OrientationGuess? {
        guard found.isAxisSure, abs(found.edgeMargin) >= minimumAgreeingMargin,
            let upDown = upDown(), abs(upDown) >= minimumUpDown, (upDown > 0) == (found.edgeMargin >= 0)
        else { return nil }
        let direction = (found.directionShare - 0.5) / (LineOrientation.minimumDirectionShare - 0.5)
        let value = LineOrientation.sureConfidence * min(direction, abs(upDown) / minimumUpDown)
        return OrientationGuess(rotate: found.rotate, confidence: (value * 100).rounded() / 100)
    }

    /// Leptonica's up-or-down confidence (`TextUpDown`) at which it alone answers a straightened
    /// scan whose look is sure of the axis only and whose edge side clearly says the other end
    /// of it (at least `minimumAgreeingMargin`): on two-page spreads the edge side is misled (the
    /// gutter, the facing page's lines) and leptonica's count of ascenders and descenders is
    /// not. Fitted leaving one source out at a time, over the real scans and photos turned four
    /// ways (`Tools/accuracy/fit_scan_up_down.py`; docs/correction-scans.md, "leptonica against
    /// the edge side on scans").
    static let minimumScanUpDown = 8.0

    /// Leptonica's end of the look's axis on a straightened scan where the look is sure of the
    /// axis only (`isAxisSure`) and its edge side and leptonica clearly disagree: the edge margin
    /// at least `minimumAgreeingMargin` one way, leptonica at least `minimumScanUpDown` the
    /// other; nil otherwise (Tesseract is asked). Its confidence is `upDownGuess`'s scale with
    /// this bar.
    static func scanUpDownGuess(
        _ found: LineOrientation.Finding, _ look: (gray: [UInt8], width: Int, height: Int)
    ) -> OrientationGuess? {
        scanUpDownGuess(found, upDown: { upDown(found, look) })
    }

    /// `scanUpDownGuess` with leptonica's reading (`upDown`) asked only when the look's finding
    /// passes the cheap tests (as `upDownGuess(_:upDown:)`).
    static func scanUpDownGuess(_ found: LineOrientation.Finding, upDown: () -> Double?) -> OrientationGuess? {
        guard found.isAxisSure, abs(found.edgeMargin) >= minimumAgreeingMargin,
            let upDown = upDown(), abs(upDown) >= minimumScanUpDown,
            (upDown > 0) != (found.edgeMargin >= 0)
        else { return nil }
        let sideways = found.rotate % 180 == 90
        let rotate = sideways ? (upDown > 0 ? 90 : 270) : (upDown > 0 ? 0 : 180)
        let direction = (found.directionShare - 0.5) / (LineOrientation.minimumDirectionShare - 0.5)
        let value = LineOrientation.sureConfidence * min(direction, abs(upDown) / minimumScanUpDown)
        return OrientationGuess(rotate: rotate, confidence: (value * 100).rounded() / 100)
    }

    /// The look's edge margin at which it alone answers a page whose look is sure of the axis
    /// only, when leptonica's count says nothing (a reading of 0, or none): the edge side is then
    /// unopposed, and on the real pages it answers, the short Tesseract reading it would have
    /// asked either agreed or was too weak to turn the page. Under `minimumAgreeingMargin` the
    /// side is barely measured, so the fit's grid starts there. Fitted leaving one source out at a
    /// time, over the real scans and photos turned four ways
    /// (`Tools/accuracy/fit_unopposed_edge.py`; docs/correction-scans.md, "the edge side when
    /// leptonica is silent").
    static let minimumUnopposedMargin = 0.05

    /// The look's turn when it is sure of the axis only (`isAxisSure`), its edge margin is at
    /// least `minimumUnopposedMargin` and leptonica's reading (`upDown`, asked only past the
    /// look's tests) is 0 or none; nil otherwise (Tesseract is asked). Its confidence is the
    /// look's scale with this bar, as `upDownGuess` scales its own.
    static func unopposedGuess(_ found: LineOrientation.Finding, upDown: () -> Double?) -> OrientationGuess? {
        guard found.isAxisSure, abs(found.edgeMargin) >= minimumUnopposedMargin, (upDown() ?? 0) == 0 else {
            return nil
        }
        let direction = (found.directionShare - 0.5) / (LineOrientation.minimumDirectionShare - 0.5)
        let value = LineOrientation.sureConfidence * min(direction, abs(found.edgeMargin) / minimumUnopposedMargin)
        return OrientationGuess(rotate: found.rotate, confidence: (value * 100).rounded() / 100)
    }

    /// Characters Tesseract reads on the crop when the look is sure of the axis (`axisGuess`):
    /// it only has to tell up from down along it. Its time follows the characters (five glyphs
    /// classified each: 8 cost about half of 20, docs/benchmarks.md), its confidence too, so the
    /// bar below is lower than the policy's.
    static let axisCropCharacters = 8
    /// The confidence Tesseract's short crop reading needs, on the look's axis, to turn the page:
    /// over the wrong readings along the axis of the real photos turned four ways (0.23-0.44).
    /// Fitted on half the sources it came out at 0.25, which turned one held-out copy wrong (at
    /// 0.44), so it was refitted on every source (`Tools/accuracy/fit_axis_crop.py`;
    /// docs/benchmarks.md, "Tesseract told the axis").
    static let minimumAxisConfidence = 0.5

    /// The confidence Tesseract's short crop reading needs to turn a page against both cheap
    /// readings of up and down: the look's edge side and leptonica's count (`upDown`) agreeing on
    /// the other end of the axis. Each is weak alone (under its own bar), but the short reading
    /// that both contradicted turned every such real photo the wrong way. Fitted leaving one
    /// source of the real photos turned four ways out at a time
    /// (`Tools/accuracy/fit_contested_axis.py`; docs/correction-photos.md, "two readings against
    /// Tesseract's short one").
    static let minimumContestedAxisConfidence = 1.5

    /// Whether the look's edge side and leptonica's reading (`upDown`, read only when asked:
    /// positive when the text reads upright in the frame the look's lines run across) both
    /// say the end of the axis opposite to `crop`'s turn, while `crop` is under
    /// `minimumContestedAxisConfidence`. A reading of exactly 0 says nothing.
    static func isContested(
        _ found: LineOrientation.Finding, _ crop: OrientationGuess, upDown: () -> Double?
    ) -> Bool {
        guard crop.rotate != 0, crop.rotate != found.rotate, crop.confidence < minimumContestedAxisConfidence,
            found.edgeMargin != 0,
            let upDown = upDown(), upDown != 0
        else { return false }
        return (upDown > 0) == (found.edgeMargin > 0)
    }

    /// Leptonica's reading of one page (`upDown`), made on the first ask and kept: a scan's guess
    /// asks it up to three times (`upDownGuess`, `scanUpDownGuess`, the short axis reading's
    /// doubts), and the reading is the same each time.
    final class UpDownOnce {
        private let read: () -> Double?
        private var value: Double??

        init(_ read: @escaping () -> Double?) { self.read = read }

        /// The reading, made now if it was not yet.
        func callAsFunction() -> Double? {
            if let value { return value }
            let made = read()
            value = .some(made)
            return made
        }
    }

    /// Leptonica's up-or-down reading of the `look` copy, turned so the look's lines run across;
    /// nil when it shows no ink or leptonica cannot tell.
    static func upDown(_ found: LineOrientation.Finding, _ look: (gray: [UInt8], width: Int, height: Int)) -> Double? {
        guard let threshold = LineOrientation.inkThreshold(gray: look.gray) else { return nil }
        return TextUpDown.confidence(
            gray: look.gray, width: look.width, height: look.height, below: threshold,
            turnedClockwise: found.rotate == 90 || found.rotate == 270)
    }

    /// Tesseract's `crop` reading of a page whose look (`found`) is sure of the axis but not of
    /// up or down, on the policy's scale: a turn along the look's axis (which the look had right
    /// on every real page it was sure of) scores `LineOrientation.sureConfidence` at
    /// `minimumAxisConfidence` and grows with it; a turn across it contradicts the look and
    /// scores 0. The script confidence is Tesseract's, so the policy's handwriting guard still
    /// holds (`OrientationPolicy.turns`).
    /// A turn it would take that both cheap readings contradict (`isContested`, `upDown` read
    /// only then) keeps the page, with Tesseract's own confidence, under the policy's bar.
    static func axisGuess(
        _ found: LineOrientation.Finding, _ crop: OrientationGuess, upDown: () -> Double? = { nil }
    ) -> OrientationGuess {
        guard crop.rotate % 180 == found.rotate % 180 else {
            return OrientationGuess(rotate: crop.rotate, confidence: 0, scriptConfidence: crop.scriptConfidence)
        }
        let value = LineOrientation.sureConfidence * crop.confidence / minimumAxisConfidence
        let guess = OrientationGuess(
            rotate: crop.rotate, confidence: (value * 100).rounded() / 100, scriptConfidence: crop.scriptConfidence)
        // Asked only of a guess that would turn the page: a kept page's record stays as it was.
        guard OrientationPolicy.turns(guess), isContested(found, crop, upDown: upDown) else { return guess }
        return OrientationGuess(
            rotate: crop.rotate, confidence: crop.confidence, scriptConfidence: crop.scriptConfidence)
    }

    /// The look's direction votes (glyph pieces in lines) a page needs before Tesseract reads a
    /// second crop when its short axis reading was too unsure to turn the page (`readsAxisAgain`):
    /// a page with many lines of text, where a second window holds enough glyphs to read. With
    /// `minimumAgainConfidence`, fitted leaving one source of the real photos turned four ways
    /// out at a time, every fold choosing the same pair; a finer grid of bars chose a lower one
    /// in one fold and turned its held-out copy wrong (`Tools/accuracy/fit_axis_again.py`;
    /// docs/correction-photos.md, "a second crop when the short reading is unsure").
    static let minimumAgainVotes = 300
    /// The confidence the second crop's reading (`againGuess`) needs, along the look's axis, to
    /// turn the page: the short reading's own bar (`minimumAxisConfidence`), which the fit chose.
    static let minimumAgainConfidence = 0.5
    /// The look's direction share (`LineOrientation.Finding.directionShare`) a page needs, too,
    /// before the second crop is read: under it the glyph pieces barely agree on which way the
    /// lines run (handwriting, sums written on squared paper), and on the real pages traced there
    /// Tesseract's second window never turned one. Fitted leaving one source out at a time over
    /// the real scans and photos turned four ways, on a grid of 0.05 steps; a finer grid puts it
    /// over the lowest page a second window turned in one fold, so the bar is close
    /// (`Tools/accuracy/fit_again_share.py`; docs/correction-photos.md, "which Tesseract readings
    /// never change the outcome").
    static let minimumAgainShare = 0.75

    /// Whether a second crop is read after the short axis reading `crop`: the page has at least
    /// `minimumAgainVotes`, and `crop`, scaled as `axisGuess` scales it, is under the policy's
    /// bar (a turn across the look's axis scores 0). A reading sure enough that Tesseract's script
    /// guard alone keeps the page is not read again, nor a contested one (`axisGuess` keeps it).
    /// A short reading that found too few characters (`readNothing`) is not read again either:
    /// the second window holds fewer glyphs than the densest; nor a page whose lines barely agree
    /// on their direction (under `minimumAgainShare`).
    static func readsAxisAgain(_ found: LineOrientation.Finding, _ crop: OrientationGuess) -> Bool {
        found.votes >= minimumAgainVotes && found.directionShare >= minimumAgainShare && !readNothing(crop)
            && axisGuess(found, crop).confidence < OrientationPolicy.minimumConfidence
    }

    /// Whether Tesseract's reading is its "too few characters" answer (`tesseractGuess`: no
    /// turn, confidence 0, no script read).
    static func readNothing(_ guess: OrientationGuess) -> Bool {
        guess.rotate == 0 && guess.confidence == 0 && guess.scriptConfidence == nil
    }

    /// The second crop's reading `again` on the policy's scale: a turn along the look's axis
    /// scores `LineOrientation.sureConfidence` at `minimumAgainConfidence`; nil across the axis
    /// or at no turn (the first reading stands). The script confidence is Tesseract's, so the
    /// policy's handwriting guard holds.
    static func againGuess(_ found: LineOrientation.Finding, _ again: OrientationGuess) -> OrientationGuess? {
        guard again.rotate != 0, again.rotate % 180 == found.rotate % 180 else { return nil }
        let value = LineOrientation.sureConfidence * again.confidence / minimumAgainConfidence
        return OrientationGuess(
            rotate: again.rotate, confidence: (value * 100).rounded() / 100, scriptConfidence: again.scriptConfidence)
    }

    /// The share of the short axis reading's confidence the same window, read on to
    /// `cropCharacters`, must keep for a doubted turn (`isDoubted`) to stand (`readOnGuess`): a
    /// reading that weakens as Tesseract reads on was a fluke of its first glyphs. Fitted leaving
    /// one source of the real photos turned four ways out at a time, the most cautious share that
    /// turned no right page back (`Tools/accuracy/fit_axis_doubt.py`; docs/correction-photos.md,
    /// "a doubted short reading is read on").
    static let minimumReadOnShare = 1.0

    /// Whether a turn the short axis reading `crop` takes is doubted: `crop` is under
    /// `minimumContestedAxisConfidence` (over it, a reading turns the page against both cheap
    /// readings, so against one too; the fit chose that bar again) and the look's edge side, or
    /// leptonica's reading (`upDown`, read only when asked: positive when the text reads upright
    /// in the frame the look's lines run across; 0 says nothing), says the other end of the axis.
    /// Either alone; `isContested` keeps a weak reading both contradict without reading on.
    static func isDoubted(_ found: LineOrientation.Finding, _ crop: OrientationGuess, upDown: () -> Double?) -> Bool {
        guard crop.confidence < minimumContestedAxisConfidence else { return false }
        if crop.rotate != found.rotate { return true }
        guard let upDown = upDown(), upDown != 0 else { return false }
        let across = found.rotate % 180
        return (upDown > 0 ? across : across + 180) != crop.rotate
    }

    /// A doubted turn's `guess` after the same window was read on (`readOn`): it stands when that
    /// reading turns the same way with at least `minimumReadOnShare` of the short reading's
    /// confidence; otherwise the page is kept with the read-on confidence (0 when it turned
    /// elsewhere or read nothing), held under the policy's bar.
    static func readOnGuess(_ crop: OrientationGuess, guess: OrientationGuess, readOn: OrientationGuess?)
        -> OrientationGuess
    {
        let along = readOn.flatMap { $0.rotate == crop.rotate ? $0.confidence : nil } ?? 0
        if along >= minimumReadOnShare * crop.confidence { return guess }
        let kept = OrientationGuess(rotate: crop.rotate, confidence: along, scriptConfidence: crop.scriptConfidence)
        return OrientationPolicy.turns(kept)
            ? OrientationGuess(rotate: crop.rotate, confidence: 0, scriptConfidence: crop.scriptConfidence) : kept
    }

    /// After the short axis reading `crop` (and its `guess`), Tesseract reads the page's second
    /// densest window of glyphs (`cropCharacters`) when `readsAxisAgain`: that reading's guess
    /// when it turns the page, `guess` otherwise. A `doubted` turn (`isDoubted`) has the same
    /// window read on to `cropCharacters` instead (`readOnGuess`). With `QUIRE_PROFILE=calls` both
    /// are read (and noted) on every page the short reading was asked of, turned or not, to fit
    /// the bars.
    func axisReadAgain(
        _ page: VIPSImage, found: LineOrientation.Finding, crop: OrientationGuess, guess: OrientationGuess,
        doubted: Bool, boxes: [LineOrientation.Box], copyWidth: Int, copyHeight: Int
    ) throws -> OrientationGuess {
        let asks = Self.readsAxisAgain(found, crop)
        var readOn: OrientationGuess?
        if doubted || StageProfile.tracesCalls {
            readOn = try StageProfile.measure("2e tesseract axis read on") {
                try tesseractGuess(
                    page, boxes: boxes, copyWidth: copyWidth, copyHeight: copyHeight, characters: Self.cropCharacters)
            }
            StageProfile.note("tesseract same \(Self.describe(readOn))")
        }
        var again: OrientationGuess?
        if asks || StageProfile.tracesCalls {
            again = try StageProfile.measure("2e tesseract axis again") {
                try tesseractGuess(
                    page, boxes: boxes, copyWidth: copyWidth, copyHeight: copyHeight, characters: Self.cropCharacters,
                    skippingDensest: true)
            }
            StageProfile.note("tesseract again \(Self.describe(again))")
        }
        if doubted { return Self.readOnGuess(crop, guess: guess, readOn: readOn) }
        guard asks, let again, let turned = Self.againGuess(found, again), OrientationPolicy.turns(turned) else {
            return guess
        }
        return turned
    }

    /// Characters Tesseract may read on the whole page when the crop was unsure: its own 50.
    /// This caps its time on the page: it classifies at most five times as many glyphs
    /// (`os_detect_blobs`), about 1-3 s of CPU on a 300 dpi page (docs/benchmarks.md).
    static let fallbackCharacters = TextEngine.defaultOrientationCharacters

    /// Whether the crop's `guess` is too unsure to keep without a second reading: under the
    /// confidence a turn needs (`OrientationPolicy.minimumConfidence`), where one crop of
    /// typewritten or sparse text can fall and the whole page still reads clearly.
    static func fallsBack(_ guess: OrientationGuess) -> Bool {
        guess.confidence < OrientationPolicy.minimumConfidence
    }

    /// The line look's direction votes (about the glyph pieces in lines) under which the
    /// whole-page fallback is not read after an unsure crop: a page carrying too little text for
    /// the crop (handwriting, a receipt, a leaflet of pictures), where the fallback costs 300-800
    /// ms and, on the real photos, never changed the outcome. Fitted on half the sources of the
    /// real photos turned four ways, scored on the other half (`Tools/accuracy/fit_fallback.py`;
    /// docs/benchmarks.md, "a gate on the whole-page fallback"): the two pages the fallback
    /// turned upright had 414 and 711 votes.
    static let fallbackVotes = 400

    /// Whether the whole-page fallback after an unsure crop is skipped: the look (`lines`, nil
    /// when it found no glyphs) saw too little text.
    static func skipsFallback(_ lines: LineOrientation.Finding?) -> Bool {
        (lines?.votes ?? 0) < fallbackVotes
    }

    /// The page read once more, whole, at the size Tesseract read before the crop
    /// (`tesseractGuess(_:characters:)`), after the `crop`'s unsure guess: the more confident
    /// of the two answers.
    func fallbackGuess(_ page: VIPSImage, crop: OrientationGuess) throws -> OrientationGuess? {
        guard let whole = try tesseractGuess(page, characters: Self.fallbackCharacters) else { return crop }
        return whole.confidence > crop.confidence ? whole : crop
    }

    /// Tesseract reads its crop with the median glyph piece scaled to about this many pixels:
    /// the size its orientation model reads best (x-heights of about 20-30 px; much smaller
    /// text reads upside down with high confidence: docs/correction-scans.md).
    static let cropGlyphSize = 28.0
    /// The crop's side in its own pixels: at `cropGlyphSize` about 35 glyphs across, enough
    /// lines for `cropCharacters` and more, while the page's layout analysis stays small.
    static let cropSide = 1024
    /// Text smaller than `cropGlyphSize` is enlarged at most this many times (more only blurs).
    static let maximumCropEnlargement = 4.0
    /// Characters Tesseract reads before it may stop on the crop: each costs milliseconds, so
    /// this bounds the call's time; fewer than its own 50
    /// lose little confidence on a crop of the densest text
    /// (`TextOrientationTests.aCropOfTheDensestTextAnswersLikeThePage`).
    static let cropCharacters = 20

    /// Tesseract's guess read on one crop of `page`: the square of densest text among the glyph
    /// `boxes` the look found on its `copyWidth` x `copyHeight` grey copy, scaled so its glyphs
    /// are `cropGlyphSize` px; the whole page (`tesseractGuess(_:)`) when there are no boxes.
    /// `skippingDensest`: the densest window among the boxes outside that square (nil when none).
    func tesseractGuess(
        _ page: VIPSImage, boxes: [LineOrientation.Box], copyWidth: Int, copyHeight: Int,
        characters: Int = cropCharacters, skippingDensest: Bool = false
    ) throws -> OrientationGuess? {
        guard let engines = TesseractEngines.orientation else { return nil }
        let toPage = Double(page.width) / Double(max(1, copyWidth))
        let glyph = Double(LineOrientation.median(boxes.map { max($0.width, $0.height) })) * toPage
        guard glyph > 0, toPage.isFinite else { return try tesseractGuess(page) }
        let scale = min(Self.maximumCropEnlargement, Self.cropGlyphSize / glyph)
        let side = max(1, Int(Double(Self.cropSide) / scale / toPage))
        guard
            let window = LineOrientation.densestWindow(
                boxes, width: copyWidth, height: copyHeight, side: side, skippingDensest: skippingDensest)?.window
        else { return skippingDensest ? nil : try tesseractGuess(page) }
        let x = min(page.width - 1, max(0, Int(Double(window.x0) * toPage)))
        let y = min(page.height - 1, max(0, Int(Double(window.y0) * toPage)))
        let w = min(page.width - x, max(1, Int((Double(window.width) * toPage).rounded(.up))))
        let h = min(page.height - y, max(1, Int((Double(window.height) * toPage).rounded(.up))))
        var crop = try page.cropped(x: x, y: y, width: w, height: h)
        if crop.bands >= 3 { crop = try crop.extractBands(1) }  // green: close to luma, no colour cast
        guard let image = try Self.scaled(crop, by: scale) else { return nil }
        let found = try engines.withEngine { $0.orientation(of: image, characters: characters) }
        StageProfile.note(Self.describeScores(found))
        guard let found else { return OrientationGuess(rotate: 0, confidence: 0) }
        return Self.guess(found)
    }

    /// The grey `crop` scaled `scale` times, as Tesseract is handed it, at the resolution its
    /// header states; nil when it is out of Tesseract's range. An 8-bit crop is enlarged by
    /// `CubicEnlarger` (libvips's own enlargement, the same bytes, at a fraction of its cost);
    /// anything else by libvips.
    static func scaled(_ crop: VIPSImage, by scale: Double) throws -> TextImage? {
        let dpi = crop.headerResolution.y
        guard scale > 1, crop.format == .uchar, crop.bands == 1 else {
            return try TextImage.pixels(of: crop.resized(horizontal: scale, vertical: scale), dpi: dpi)
        }
        let size = CubicEnlarger.size(width: crop.width, height: crop.height, scale: scale)
        let pixels = CubicEnlarger.enlarge(
            try crop.pixelBytesDirect(), width: crop.width, height: crop.height, scale: scale)
        return TextImage(pixels: pixels, width: size.width, height: size.height, bands: 1, dpi: dpi)
    }

    /// Tesseract's guess alone, on a copy of `page` sized for it, read until `characters`
    /// (`TextEngine.orientation`); nil without an engine.
    func tesseractGuess(_ page: VIPSImage, characters: Int = TextEngine.defaultOrientationCharacters) throws
        -> OrientationGuess?
    {
        guard let engines = TesseractEngines.orientation else { return nil }
        var grey = try page.fitted(inside: Self.longestSide)
        // Small pages are enlarged (up to 3 times, to about 1600 px): Tesseract cannot tell the
        // way up of text a few pixels high (docs/correction-scans.md; `make accuracy-orientation`
        // scores scikit-image's 384 x 191 page.png turned four ways).
        let long = max(grey.width, grey.height)
        if long < Self.smallSide {
            let factor = min(3, Double(Self.smallSide) / Double(long))
            grey = try grey.resized(horizontal: factor, vertical: factor)
        }
        if grey.bands >= 3 { grey = try grey.extractBands(1) }  // green: close to luma, no colour cast
        // The resolution the copy's header states, as Tesseract read it from the copy's file.
        guard let image = try TextImage.pixels(of: grey, dpi: grey.headerResolution.y) else { return nil }
        let found = try engines.withEngine { $0.orientation(of: image, characters: characters) }
        StageProfile.note(Self.describeScores(found))
        // Too few characters to tell: keep the page, reported as not sure.
        guard let found else { return OrientationGuess(rotate: 0, confidence: 0) }
        return Self.guess(found)
    }

    /// The guess of Tesseract's finding, its confidences rounded as its report prints them.
    static func guess(_ found: ScriptOrientation) -> OrientationGuess? {
        let scale = pow(10, confidenceDecimals)
        func rounded(_ value: Double) -> Double? { value.isFinite ? (value * scale).rounded() / scale : nil }
        guard let confidence = rounded(found.confidence) else { return nil }
        return OrientationGuess(
            rotate: found.rotate, confidence: confidence, scriptConfidence: rounded(found.scriptConfidence))
    }
}

/// When a guess is acted on.
public enum OrientationPolicy {
    /// The confidence a guess needs before a page is turned (calibrated on real scans turned by
    /// 90, 180 and 270 degrees: docs/correction-scans.md).
    public static let minimumConfidence = 2.0
    /// Tesseract's orientation model knows printed glyphs: on handwriting it reads upright
    /// pages as upside down with confidence up to 5.7 (three of handwriting-ocr's photos), and
    /// its script confidence stays under 0.7 there. A guess under `sureConfidence` must also
    /// have read a script with at least `minimumScriptConfidence`; printed scans of the
    /// calibration set score 9 and more, or a script confidence of 1 and more.
    public static let minimumScriptConfidence = 1.0
    public static let sureConfidence = 8.0

    /// Whether `guess` is sure enough to turn a page by: a turn, confident, and either very
    /// confident or on text Tesseract recognised as a script (a guess that does not report its
    /// script is judged on its confidence alone).
    public static func turns(_ guess: OrientationGuess) -> Bool {
        guard guess.rotate != 0, guess.confidence >= minimumConfidence else { return false }
        return guess.confidence >= sureConfidence || (guess.scriptConfidence ?? .infinity) >= minimumScriptConfidence
    }
}
