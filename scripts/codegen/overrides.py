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
    # A polygon's coordinates: in a buffer the lists of one decode share (one allocation for an assignment's
    # vertices instead of two arrays per polygon), still a value with copy on write (CoordinateList.swift).
    "locationwire.v1.Polygon.latitudes_e7": {
        "collection_type": "CoordinateList",
        "doc_note": ["A ``CoordinateList``: used as `[Int32]`, but decoded lists share one buffer."],
    },
    "locationwire.v1.Polygon.longitudes_e7": {
        "collection_type": "CoordinateList",
        "doc_note": ["A ``CoordinateList``: used as `[Int32]`, but decoded lists share one buffer."],
    },
}

# Messages with a decoding loop of their own (a faster path first) in their hand-written file: the others get
# `decodeFields(from:)` generated, the shared loop around their hand-written `decodeField(_:from:)`.
OWN_DECODE_LOOP = {
    # The fast path (FastFieldScanner) decodes a whole fix without the careful decoder's checks per field.
    "locationwire.v1.LocationFix",
    # The same for an event: its scalars through the fast path, its region id and trigger fix read in place.
    "locationwire.v1.FenceEvent",
}

# Messages whose struct is declared by hand in Sources/LocationWire/Messages/ rather than generated.
HAND_WRITTEN_STRUCTS = {
    # Its 24 FixColumn fields are one array indexed by LocationFix field number (`columns`, whose setter is private
    # to CompactFixes.swift), so that expansion and compaction loop over columns instead of naming each; its
    # schema is built from LocationFix.Field, whose numbers and names the generator checks are the columns'.
    "locationwire.v1.CompactFixes",
}

# Swift names of messages, enums and enum values (by full name; a value as <enum full name>.<VALUE_NAME>) that are
# not the .proto name (values: the name without the enum's prefix, lower camel case). The testee protocol's types
# live beside locationwire.v1's and the validation module's in the modules that use them, so its generic names
# carry what they are about.
SWIFT_NAMES = {
    "locationwire.conformance.v1.Decoded": "DecodedOutput",
    "locationwire.conformance.v1.ParseError": "ParseErrorReport",  # not a Swift Error: what a testee reports
    "locationwire.conformance.v1.Violation": "ReportedViolation",  # LocationWireValidation has Violation
    "locationwire.conformance.v1.Feature": "TesteeFeature",
    "locationwire.conformance.v1.Check": "TesteeCheck",
    # An acronym keeps one case, as in DecodingError.Code.invalidUTF8, which the built-in testee maps onto it.
    "locationwire.conformance.v1.ErrorCategory.ERROR_CATEGORY_INVALID_UTF8": "invalidUTF8",
}

# Testee-protocol messages that get a memberwise initializer besides `init()`: one parameter per property, in field
# order, each defaulting to the property's initial value, so a caller names only what it sets
# (`ParseErrorReport(category: .truncated, code: code)`). A oneof that holds the message's first field is the
# unlabeled first parameter, since its cases say what it is (`SessionStep(.ack(ack), nowMs: now)`). Listed: the
# messages that code builds in one expression.
MEMBERWISE_INITS = {
    "locationwire.conformance.v1." + name for name in (
        "TesteeRequest", "TesteeResponse", "VectorRequest", "VectorResponse", "ParseError", "Violation",
        "SessionStep", "SessionResponse", "LedgerBatch", "LedgerResponse", "UploadAttemptResult", "RecordedFix",
        "DroppedFix", "FenceStep",
    )
}

# Real oneofs of the testee protocol whose Swift enum is written by hand instead of generated, by the oneof's name
# (every oneof of that name, in any message) or its full name (<message full name>.<oneof name>). The entry names
# the type and the members, with their .proto types, every such oneof must have (the generator checks). The
# message holds it as an optional property named after the oneof, and its table rows are the type's
# `oneofMembers(<member>: <number>, ..., in: \.<property>)`, which takes each message's own numbers.
HAND_WRITTEN_ONEOFS = {
    # Every response but the vector's ends in `oneof failure { string skipped; string runtime_error; }`: one type
    # for all of them, so that the runner and the built-in testee handle a request that did not run alike whatever
    # its kind (BehaviorResponse.failure). Sources/LocationWireConformance/Protocol/TesteeFailure.swift.
    "failure": {"swift_type": "TesteeFailure", "members": {"skipped": "string", "runtime_error": "string"}},
    # Its two bool members are cases without a value: a flag set to false is held as no result (which succeeds
    # too), so only true is ever written. Sources/LocationWireConformance/Protocol/UploadAttemptResult+Result.swift.
    "locationwire.conformance.v1.UploadAttemptResult.result": {
        "swift_type": "UploadAttemptResult.Result",
        "members": {"succeeded": "bool", "transport_failed": "bool", "held_retry_after_ms": "uint32"},
    },
}
