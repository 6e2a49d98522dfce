extension String {
    /// The text without spaces, tabs, carriage returns and line feeds around it, found on its UTF-8 bytes. The text
    /// itself when it has none, which is the common case and then costs nothing; Foundation's
    /// `trimmingCharacters(in:)` goes through NSString and was a third of the time of reading a large GPX file.
    public func trimmingASCIIWhitespace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        func blank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard blank(first) || blank(last) else { return self }
        let start = utf8.firstIndex { !blank($0) } ?? utf8.endIndex
        let end = utf8.lastIndex { !blank($0) }.map { utf8.index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }

    /// An XML name without its namespace prefix: `gpxtpx:speed` is `speed`.
    public var localXMLName: String {
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return self }
        return String(self[utf8.index(after: colon)...])
    }
}
