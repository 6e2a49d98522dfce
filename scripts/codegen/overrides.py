"""The Swift representation choices that differ from the mechanical mapping of proto/ (model.py): the only place
they are written. The generator fails when an entry names something proto/ no longer has."""

# Field overrides, by full field name: the stored property's name and Swift type, and what its doc comment adds
# to the .proto comment. The field's `Field` case and its FieldDeclaration row keep the .proto name and type.
FIELDS = {
    # A binary32 float on the wire, stored as its bit pattern so that equality and hashing are bit-exact: NaN
    # payloads and -0.0 survive a round trip and compare equal to themselves. LocationFix.swift adds
    # `pressureHpa: Float?` over it; the compact column is the same bit pattern (compact_fixes.proto).
    "locationwire.v1.LocationFix.pressure_hpa": {
        "property": "pressureHpaBits",
        "swift_type": "UInt32",
        "doc_note": ["Stored as the IEEE 754 binary32 bit pattern, so that equality is bit-exact (NaN payloads and",
                     "-0.0 survive a round trip and compare equal to themselves); `pressureHpa` reads it as a Float."],
    },
}

# Messages with a decoding loop of their own (a faster path first) in their hand-written file: the others get
# `decodeFields(from:)` generated, the shared loop around their hand-written `decodeField(_:from:)`.
OWN_DECODE_LOOP = {
    # The fast path (FastFieldScanner) decodes a whole fix without the careful decoder's checks per field.
    "locationwire.v1.LocationFix",
}

# Messages whose struct is declared by hand in Sources/LocationWire/Messages/ rather than generated.
HAND_WRITTEN_STRUCTS = {
    # Its 24 FixColumn fields are one array indexed by LocationFix field number (`columns`, whose setter is private
    # to CompactFixes.swift), so that expansion and compaction loop over columns instead of naming each; its
    # schema is built from LocationFix.Field, whose numbers and names the generator checks are the columns'.
    "locationwire.v1.CompactFixes",
}
