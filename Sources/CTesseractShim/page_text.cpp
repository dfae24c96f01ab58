// The hOCR and plain text of a recognised page in one pass (see ctesseract_shim.h).
//
// The hOCR is written as Tesseract 5.3's GetHOCRText (src/api/hocrrenderer.cpp) writes it, element
// for element and number for number, with the hOCR options Quire leaves at their defaults; the text
// as GetUTF8Text (src/api/baseapi.cpp, ResultIterator::IterateAndAppendUTF8TextlineText) joins it.
// The one difference is the iterator: an LTRResultIterator steps through the page in the order
// Tesseract stores it, a constant amount of work a step, where the ResultIterator those functions
// use re-finds the current line from the top of the page on each step to put right-to-left runs in
// reading order. When every word reads left to right (or is neutral: digits, punctuation), every
// paragraph is left to right and both orders are the same (ResultIterator::CurrentParagraphIsLtr,
// CalculateTextlineOrder, CalculateBlobOrder); pages with other words are left to Tesseract.
#include "ctesseract_shim.h"

#include <tesseract/baseapi.h>
#include <tesseract/ltrresultiterator.h>
#include <tesseract/resultiterator.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <locale>
#include <memory>
#include <new>
#include <sstream>
#include <string>

using namespace tesseract;

namespace {

// Whether the engine's settings leave Tesseract's writers at what this file writes: no fonts, no
// character boxes, no LSTM alternatives in the hOCR, single spaces between words in the text.
bool plainSettings(TessBaseAPI &api) {
    bool flag = false;
    int mode = 0;
    if (!api.GetBoolVariable("hocr_font_info", &flag) || flag) return false;
    if (!api.GetBoolVariable("hocr_char_boxes", &flag) || flag) return false;
    if (!api.GetBoolVariable("preserve_interword_spaces", &flag) || flag) return false;
    if (!api.GetIntVariable("lstm_choice_mode", &mode) || mode != 0) return false;
    return true;
}

// Whether every word from `start` on reads left to right or is neutral, and no block is of the
// kind Tesseract's hOCR writer stops on (PT_NOISE).
bool leftToRightOnly(const LTRResultIterator &start) {
    LTRResultIterator it(start);
    for (; !it.Empty(RIL_BLOCK); it.Next(RIL_WORD)) {
        if (it.BlockType() == PT_NOISE) return false;
        if (it.Empty(RIL_WORD)) continue;
        StrongScriptDirection direction = it.WordDirection();
        if (direction == DIR_RIGHT_TO_LEFT || direction == DIR_MIX) return false;
    }
    return true;
}

// hocrrenderer.cpp's AddBaselineCoordsTohOCR: the baseline of a line, or its text angle.
void addBaseline(const PageIterator &it, PageIteratorLevel level, std::stringstream &out) {
    Orientation orientation;
    WritingDirection writing_direction;
    TextlineOrder textline_order;
    float deskew_angle;
    it.Orientation(&orientation, &writing_direction, &textline_order, &deskew_angle);
    if (orientation != ORIENTATION_PAGE_UP) {
        out << "; textangle " << 360 - orientation * 90;
        return;
    }
    int left, top, right, bottom;
    it.BoundingBox(level, &left, &top, &right, &bottom);
    int x1, y1, x2, y2;
    if (!it.Baseline(level, &x1, &y1, &x2, &y2)) return;
    x1 -= left;
    x2 -= left;
    y1 -= bottom;
    y2 -= bottom;
    if (x1 == x2) return;
    double p1 = (y2 - y1) / static_cast<double>(x2 - x1);
    double p0 = y1 - p1 * x1;
    out << "; baseline " << round(p1 * 1000.0) / 1000.0 << " " << round(p0 * 1000.0) / 1000.0;
}

// hocrrenderer.cpp's AddBoxTohOCR: the title of a block, paragraph or line.
void addBox(const PageIterator &it, PageIteratorLevel level, std::stringstream &out) {
    int left, top, right, bottom;
    it.BoundingBox(level, &left, &top, &right, &bottom);
    out << " title=\"bbox " << left << " " << top << " " << right << " " << bottom;
    if (level == RIL_TEXTLINE) {
        addBaseline(it, level, out);
        float row_height, descenders, ascenders;
        it.RowAttributes(&row_height, &descenders, &ascenders);
        out << "; x_size " << row_height << "; x_descenders " << -descenders << "; x_ascenders " << ascenders;
    }
    out << "\">";
}

// The class of a line in a block of `type` (hOCR's names for headings, pull-outs and captions).
const char *lineClass(PolyBlockType type) {
    switch (type) {
    case PT_HEADING_TEXT:
        return "ocr_header";
    case PT_PULLOUT_TEXT:
        return "ocr_textfloat";
    case PT_CAPTION_TEXT:
        return "ocr_caption";
    default:
        return "ocr_line";
    }
}

// One walk over a recognised page, writing its hOCR and text as it goes.
class PageWalk {
  public:
    PageWalk(const LTRResultIterator &start, int page_id) : it_(start), page_(page_id) {
        hocr_.imbue(std::locale::classic());
        hocr_.precision(8);
    }

    void writeHeader(const char *input_name, int width, int height, int resolution) {
        hocr_ << "  <div class='ocr_page' id='page_" << page_ << "' title='image \"";
        hocr_ << (input_name ? HOcrEscape(input_name) : std::string("unknown"));
        hocr_ << "\"; bbox 0 0 " << width << " " << height << "; ppageno " << page_ - 1 << "; scan_res " << resolution
              << " " << resolution << "'>\n";
    }

    // hocrrenderer.cpp's loop over blocks: images and rules as empty elements, text word by word.
    void writeBlocks() {
        while (!it_.Empty(RIL_BLOCK)) {
            PolyBlockType type = it_.BlockType();
            if (writeNonText(type)) {
                it_.Next(RIL_BLOCK);
                continue;
            }
            if (it_.Empty(RIL_WORD)) {
                it_.Next(RIL_WORD);
                continue;
            }
            openElements(type);
            writeWord();
        }
        hocr_ << "  </div>\n";
    }

    std::string hocr() const { return hocr_.str(); }
    const std::string &text() const { return text_; }

  private:
    LTRResultIterator it_;
    const int page_;
    std::stringstream hocr_;
    std::string text_;
    int block_ = 1, paragraph_ = 1, line_ = 1, word_ = 1;
    const char *paragraph_lang_ = nullptr;
    // Words of the current line already in `text_`.
    int line_words_ = 0;

    // An image or a rule as its one empty element; false for text blocks.
    bool writeNonText(PolyBlockType type) {
        const char *kind = nullptr;
        switch (type) {
        case PT_FLOWING_IMAGE:
        case PT_HEADING_IMAGE:
        case PT_PULLOUT_IMAGE:
            kind = "ocr_photo";
            break;
        case PT_HORZ_LINE:
        case PT_VERT_LINE:
            kind = "ocr_separator";
            break;
        default:
            return false;
        }
        int left, top, right, bottom;
        it_.BoundingBox(RIL_TEXTLINE, &left, &top, &right, &bottom);
        hocr_ << "   <div class='" << kind << "' id='block_" << page_ << '_' << block_++ << "' title=\"bbox " << left
              << " " << top << " " << right << " " << bottom << "\"></div>\n";
        return true;
    }

    void openElements(PolyBlockType type) {
        if (it_.IsAtBeginningOf(RIL_BLOCK)) {
            hocr_ << "   <div class='ocr_carea' id='block_" << page_ << "_" << block_ << "'";
            addBox(it_, RIL_BLOCK, hocr_);
        }
        if (it_.IsAtBeginningOf(RIL_PARA)) {
            // Left to right: the only paragraphs this walk writes (no dir='rtl').
            hocr_ << "\n    <p class='ocr_par' id='par_" << page_ << "_" << paragraph_ << "'";
            paragraph_lang_ = it_.WordRecognitionLanguage();
            if (paragraph_lang_) hocr_ << " lang='" << paragraph_lang_ << "'";
            addBox(it_, RIL_PARA, hocr_);
        }
        if (it_.IsAtBeginningOf(RIL_TEXTLINE)) {
            hocr_ << "\n     <span class='" << lineClass(type) << "' id='line_" << page_ << "_" << line_ << "'";
            addBox(it_, RIL_TEXTLINE, hocr_);
        }
    }

    // One word's element and its text, leaving the iterator at the next word.
    void writeWord() {
        int left, top, right, bottom;
        bool bold, italic, underlined, monospace, serif, smallcaps;
        int pointsize, font_id;
        it_.BoundingBox(RIL_WORD, &left, &top, &right, &bottom);
        it_.WordFontAttributes(&bold, &italic, &underlined, &monospace, &serif, &smallcaps, &pointsize, &font_id);
        hocr_ << "\n      <span class='ocrx_word' id='word_" << page_ << "_" << word_ << "' title='bbox " << left << " "
              << top << " " << right << " " << bottom << "; x_wconf " << static_cast<int>(it_.Confidence(RIL_WORD))
              << "'";
        const char *lang = it_.WordRecognitionLanguage();
        if (lang && (!paragraph_lang_ || strcmp(lang, paragraph_lang_))) hocr_ << " lang='" << lang << "'";
        hocr_ << ">";
        bool last_in_line = it_.IsAtFinalElement(RIL_TEXTLINE, RIL_WORD);
        bool last_in_para = it_.IsAtFinalElement(RIL_PARA, RIL_WORD);
        bool last_in_block = it_.IsAtFinalElement(RIL_BLOCK, RIL_WORD);
        if (bold) hocr_ << "<strong>";
        if (italic) hocr_ << "<em>";
        if (line_words_++ > 0) text_ += ' ';
        do {
            std::unique_ptr<const char[]> grapheme(it_.GetUTF8Text(RIL_SYMBOL));
            if (grapheme && grapheme[0] != 0) {
                hocr_ << HOcrEscape(grapheme.get());
                text_ += grapheme.get();
            }
            it_.Next(RIL_SYMBOL);
        } while (!it_.Empty(RIL_BLOCK) && !it_.IsAtBeginningOf(RIL_WORD));
        if (italic) hocr_ << "</em>";
        if (bold) hocr_ << "</strong>";
        hocr_ << "</span>";
        word_++;
        closeElements(last_in_line, last_in_para, last_in_block);
    }

    void closeElements(bool line, bool paragraph, bool block) {
        if (line) {
            hocr_ << "\n     </span>";
            line_++;
            // GetUTF8Text: a newline after each line, another when a paragraph (or an image) follows.
            text_ += '\n';
            if (it_.IsAtBeginningOf(RIL_PARA)) text_ += '\n';
            line_words_ = 0;
        }
        if (paragraph) {
            hocr_ << "\n    </p>\n";
            paragraph_++;
        }
        if (block) {
            hocr_ << "   </div>\n";
            block_++;
        }
    }
};

char *copyOut(const std::string &text) {
    char *copy = static_cast<char *>(malloc(text.size() + 1));
    if (copy) memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

} // namespace

extern "C" int ctess_page_text(TessBaseAPI *handle, int width, int height, char **hocr, char **text) {
    *hocr = nullptr;
    *text = nullptr;
    try {
        auto &api = *reinterpret_cast<tesseract::TessBaseAPI *>(handle);
        if (!plainSettings(api)) return CTESS_NEEDS_TESSERACT;
        std::unique_ptr<ResultIterator> results(api.GetIterator());
        if (!results) return CTESS_FAILED;
        LTRResultIterator start(*results);
        start.Begin();
        if (!leftToRightOnly(start)) return CTESS_NEEDS_TESSERACT;
        PageWalk walk(start, 1);
        walk.writeHeader(api.GetInputName(), width, height, api.GetSourceYResolution());
        walk.writeBlocks();
        *hocr = copyOut(walk.hocr());
        *text = copyOut(walk.text());
    } catch (...) {
        free(*hocr);
        free(*text);
        *hocr = *text = nullptr;
        return CTESS_FAILED;
    }
    if (!*hocr || !*text) {
        free(*hocr);
        free(*text);
        *hocr = *text = nullptr;
        return CTESS_FAILED;
    }
    return CTESS_WRITTEN;
}
