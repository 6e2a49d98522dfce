import LocationWire
import LocationWireInspection
import LocationWireJSON
import LocationWireTestSupport
import Testing

/// The hand-written codec against bytes made by upb and JSON printed by C++ (see PeerGoldens).
@Suite struct PeerGoldenTests {
    @Test(arguments: PeerGoldens.samples.map(\.typeName))
    func upbBytesDecodeAndReencodeIdentically(typeName: String) throws {
        let sample = PeerGoldens.samples.first { $0.typeName == typeName }!
        let codec = try #require(AnyMessageCodec(typeName: typeName))
        let input = bytes(sample.upbBytesHex)
        let message = try codec.decodeBinary(input)
        #expect(hex(AnyMessageCodec.encodeBinary(message)) == sample.upbBytesHex)
    }

    @Test(arguments: PeerGoldens.samples.map(\.typeName))
    func printsTheJSONCppPrints(typeName: String) throws {
        let sample = PeerGoldens.samples.first { $0.typeName == typeName }!
        let codec = try #require(AnyMessageCodec(typeName: typeName))
        let message = try codec.decodeBinary(bytes(sample.upbBytesHex))
        #expect(AnyMessageCodec.encodeJSON(message) == sample.cppJSON)
    }

    @Test(arguments: PeerGoldens.samples.map(\.typeName))
    func parsesCppJSONToTheUpbBytes(typeName: String) throws {
        let sample = PeerGoldens.samples.first { $0.typeName == typeName }!
        let codec = try #require(AnyMessageCodec(typeName: typeName))
        let message = try codec.decodeJSON(Array(sample.cppJSON.utf8))
        #expect(hex(AnyMessageCodec.encodeBinary(message)) == sample.upbBytesHex)
    }

    @Test func everyMessageTypeHasAGolden() {
        let covered = Set(PeerGoldens.samples.map(\.typeName))
        #expect(Set(MessageRegistry.allTypes.map { $0.messageName }) == covered)
    }
}
