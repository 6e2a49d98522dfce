import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A SAX walk over an XML document (FoundationXML's XMLParser, libxml2) for the formats that are XML: each element's
/// start with its attributes, and its end with the text directly inside it, by local name (`gx:coord` is `coord`).
/// External entities are not resolved. White space before the XML declaration is skipped, and line numbers count
/// it, as `GPXTrace` does.
final class XMLDocumentReader: NSObject, XMLParserDelegate {
    typealias Start = (_ name: String, _ attributes: [String: String], _ line: Int) throws(InterchangeError) -> Void
    typealias End = (_ name: String, _ text: String, _ line: Int) throws(InterchangeError) -> Void

    private let start: Start
    private let end: End
    private var text = ""
    private var failure: InterchangeError?
    private var lineOffset = 0
    private(set) var rootName: String?
    private var depth = 0
    private var closedRoot = false

    private init(start: @escaping Start, end: @escaping End) {
        self.start = start
        self.end = end
    }

    /// Walks the document `input` streams; throws the first error a callback threw, or one for XML that does not
    /// parse or breaks off, or for input that cannot be read.
    static func walk(
        _ input: ImportInput, start: @escaping Start, end: @escaping End
    ) throws(InterchangeError) -> String? {
        let reader = XMLDocumentReader(start: start, end: end)
        let blank = input.leadingWhitespace()
        reader.lineOffset = blank.lines
        let stream = input.stream(droppingFirst: blank.bytes)
        let parser = XMLParser(stream: stream)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        if let failure = stream.streamError as? InterchangeError { throw failure }
        let line = "line \(parser.lineNumber + reader.lineOffset)"
        guard parsed else {
            throw InterchangeError(
                line, "not well-formed XML: \(parser.parserError.map(GPXTrace.describe) ?? "?")")
        }
        guard reader.rootName == nil || reader.closedRoot else {
            throw InterchangeError(
                line, "the XML breaks off before the root element ends: the file is truncated, or not well-formed")
        }
        return reader.rootName
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        if rootName == nil { rootName = name.localXMLName }
        depth += 1
        do {
            try start(name.localXMLName, attributes, parser.lineNumber + lineOffset)
        } catch {
            failure = error
            parser.abortParsing()
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text += String(decoding: block, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { text = "" }
        depth -= 1
        if depth == 0 { closedRoot = true }
        do {
            try end(
                name.localXMLName, text.trimmingASCIIWhitespace(), parser.lineNumber + lineOffset)
        } catch {
            failure = error
            parser.abortParsing()
        }
    }
}
