// Tesseract's orientation and script detection with what its C API drops (see ctesseract_shim.h).
//
// TessBaseAPIDetectOrientationScript (src/api/baseapi.cpp, Tesseract 5.3) runs DetectOS and keeps
// only the best orientation, its margin over the second and the script confidence. DetectOS
// thresholds the image (unless already done) and calls orientation_and_script_detection, whose
// count of characters read it turns into a bool. This does the same steps once and keeps the four
// orientation scores and that count as well. The image was just set (TessBaseAPISetImage clears
// the last results, as DetectOS's ClearResults does); GetThresholdedImage is DetectOS's Threshold
// step.
#include "ctesseract_shim.h"

#include <tesseract/baseapi.h>
#include <tesseract/osdetect.h>

#include <leptonica/allheaders.h>

extern "C" int ctess_detect_orientation(TessBaseAPI *handle, CTessOrientation *out) {
    auto *api = reinterpret_cast<tesseract::TessBaseAPI *>(handle);
    if (api->tesseract() == nullptr) return 0;
    Pix *binary = api->GetThresholdedImage();
    if (binary == nullptr) return 0;
    pixDestroy(&binary);
    const char *name = api->GetInputName();
    tesseract::OSResults osr;
    // DetectOS's own name for an image without one (kInputFile).
    int used = tesseract::orientation_and_script_detection(name != nullptr && name[0] != '\0' ? name : "noname.tif",
                                                           &osr, api->tesseract());
    if (used <= 0) return 0;
    out->counter_clockwise = osr.best_result.orientation_id * 90;
    out->confidence = osr.best_result.oconfidence;
    out->script_confidence = osr.best_result.sconfidence;
    for (int i = 0; i < 4; ++i) out->scores[i] = osr.orientations[i];
    out->characters = used;
    return 1;
}
