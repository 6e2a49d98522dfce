import LocationWire
import LocationWireInspection
import LocationWireJSON
import Testing

/// What the command line, the conformance testee and the vector generator inspect messages with: a codec chosen by
/// type name, raw wire bytes, the annotated dump and the sample messages.
@Suite struct InspectionTests {
    @Test("AnyMessageCodec finds a type by short or full name, and nothing for a name no message has")
    func typeLookup() throws {
        let short = try #require(AnyMessageCodec(typeName: "LocationBatch"))
        let full = try #require(AnyMessageCodec(typeName: "locationwire.v1.LocationBatch"))
        #expect(short.schema.fullName == "locationwire.v1.LocationBatch")
        #expect(full.schema.fullName == short.schema.fullName)
        #expect(AnyMessageCodec(typeName: "NoSuchMessage") == nil)
    }

    @Test("AnyMessageCodec decodes and encodes binary and JSON as the message type itself does")
    func codecRoundTrips() throws {
        var fix = LocationFix()
        fix.sequence = 7
        fix.latitudeE7 = 453_000_000
        fix.longitudeE7 = 146_000_000
        fix.timeMs = 1_700_000_000_000
        let codec = try #require(AnyMessageCodec(typeName: "LocationFix"))
        let bytes = fix.serializedBytes()
        let decoded = try codec.decodeBinary(bytes)
        #expect(AnyMessageCodec.encodeBinary(decoded) == bytes)
        let json = AnyMessageCodec.encodeJSON(decoded)
        #expect(json == fix.jsonString())
        #expect(AnyMessageCodec.encodeBinary(try codec.decodeJSON(Array(json.utf8))) == bytes)
    }

    @Test("WireBytes: base-128 varints, overlong ones padded with zero groups, tags and length-delimited fields")
    func wireBytes() {
        #expect(WireBytes.varint(0) == [0x00])
        #expect(WireBytes.varint(300) == [0xAC, 0x02])
        #expect(WireBytes.varint(1, length: 3) == [0x81, 0x80, 0x00])
        #expect(WireBytes.tag(1, 0) == [0x08])
        #expect(WireBytes.varintField(99, 1) == [0x98, 0x06, 0x01])
        #expect(WireBytes.lengthDelimited(2, [0x61, 0x62]) == [0x12, 0x02, 0x61, 0x62])
        #expect(WireBytes.fixed32(1) == [0x01, 0x00, 0x00, 0x00])
    }

    @Test("WireDump shows every byte as given, an unknown field by number, and the error that ends a malformed input")
    func annotatedDump() {
        // sequence = 1 as an overlong varint, then unknown field 99 with one byte.
        let dump = WireDump.dump([0x08, 0x81, 0x00, 0x9A, 0x06, 0x01, 0xFF], schema: LocationFix.schema)
        #expect(dump.error == nil)
        #expect(dump.text.contains("0       08 81 00"))
        #expect(dump.text.contains("1:varint LocationFix.sequence  1"))
        #expect(dump.text.contains("99:len LocationFix.#99  1 bytes"))
        #expect(dump.text.hasSuffix("7 bytes\n"))
        let truncated = WireDump.dump([0x08, 0x01, 0x1D, 0x01], schema: LocationFix.schema)
        #expect(truncated.error != nil)
        #expect(truncated.text.contains("error: truncated"))
    }

    @Test("SampleMessages: every message's full sample sets every field and is already canonical")
    func samplesAreCanonical() throws {
        for type in MessageRegistry.allTypes {
            let sample = SampleMessages.full(type.schema)
            let message = try type.init(serializedBytes: sample, limits: .default)
            #expect(message.serializedBytes() == sample, "\(type.schema.name)")
            #expect(
                WireBytes.fields(of: sample, schema: type.schema).count >= type.schema.fields.count,
                "\(type.schema.name)")
        }
    }
}
