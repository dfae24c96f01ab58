/// The XMP metadata packet of a PDF/A-2b file (ISO 19005-2, section 6.6): the PDF/A
/// identification (part 2, conformance B) and the same title, author, tools and date as the
/// document information dictionary, which PDF/A requires to agree with it.
enum PDFAMetadata {
    /// The packet for a document with these fields; `createDate` is ISO 8601 UTC or nil.
    static func xmp(title: String, author: String?, creator: String, producer: String, createDate: String?) -> String {
        var description = """
                  <dc:format>application/pdf</dc:format>
                  <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(escape(title))</rdf:li></rdf:Alt></dc:title>

            """
        if let author {
            description += "      <dc:creator><rdf:Seq><rdf:li>\(escape(author))</rdf:li></rdf:Seq></dc:creator>\n"
        }
        description += "      <xmp:CreatorTool>\(escape(creator))</xmp:CreatorTool>\n"
        if let createDate {
            description += "      <xmp:CreateDate>\(escape(createDate))</xmp:CreateDate>\n"
        }
        description += "      <pdf:Producer>\(escape(producer))</pdf:Producer>\n"
        description += "      <pdfaid:part>2</pdfaid:part>\n      <pdfaid:conformance>B</pdfaid:conformance>\n"
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about=""
                    xmlns:dc="http://purl.org/dc/elements/1.1/"
                    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
                    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
            \(description)    </rdf:Description>
              </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }

    /// Text escaped for XML character data and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // XML 1.0 has no spelling for most control characters: they are left out.
                if scalar.value < 32, scalar != "\t", scalar != "\n", scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
