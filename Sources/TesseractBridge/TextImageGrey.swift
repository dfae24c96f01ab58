extension TextImage {
    /// The image as one grey band when it is colour in name only: three bands with red, green
    /// and blue equal in every pixel (a grey page written as an RGB JPEG decodes so). Otherwise
    /// the image itself.
    ///
    /// Tesseract reads such a page to the same hOCR either way, and the grey band costs it less.
    /// Its Otsu thresholding takes each channel's threshold and tests a pixel channel by
    /// channel; with three equal channels every test is the grey one. Its LSTM reads each line
    /// cut from the original: a colour line is scaled and sharpened channel by channel and then
    /// made grey (0.3 red + 0.5 green + 0.2 blue, rounded), which gives the grey value back when
    /// the channels are equal. Read as grey, the page skips the three-channel histograms, the
    /// 32-bit copies and scalings of every line and the grey conversion.
    /// TextImageGreyTests.aNeutralColourPageReadsAsItsGreyBand pins the same hOCR.
    public func greyWhenNeutral() -> TextImage {
        guard bands == 3 else { return self }
        let count = width * height
        let neutral = pixels.withUnsafeBufferPointer { rgb in
            var index = 0
            while index < count * 3 {
                let red = rgb[index]
                if red != rgb[index + 1] || red != rgb[index + 2] { return false }
                index += 3
            }
            return true
        }
        guard neutral else { return self }
        var grey = self
        grey.pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialised in
            pixels.withUnsafeBufferPointer { rgb in
                for pixel in 0..<count { out[pixel] = rgb[pixel * 3] }
            }
            initialised = count
        }
        grey.bands = 1
        return grey
    }
}
