// LocationWire conformance testee for Google's Java protobuf runtime (protobuf-java, with protobuf-java-util's
// JsonFormat for proto3 JSON).
//
// Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
// is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out).
// Message types are the generated classes protoc --java_out made from proto/locationwire/v1; build.sh lists their
// outer classes in build/classes/locationwire-v1-outer-classes.txt, and the testee finds every message class
// inside them by reflection, keyed by the full name its descriptor reports.
//
// Built by build.sh; see conformance/testees/README.md.

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import locationwire.conformance.v1.Testee.Check;
import locationwire.conformance.v1.Testee.Feature;
import locationwire.conformance.v1.Testee.HelloResponse;
import locationwire.conformance.v1.Testee.TesteeRequest;
import locationwire.conformance.v1.Testee.TesteeResponse;
import locationwire.conformance.v1.Testee.VectorRequest;
import locationwire.conformance.v1.Testee.VectorResponse;

public final class JavaTestee {
  private static final String IMPLEMENTATION = "java-protobuf";
  /** With --stream-decoder: not a matrix peer, a diagnostic (see useStreamDecoder). */
  private static final String STREAM_IMPLEMENTATION = "java-protobuf-stream";
  private static final String MESSAGE_PACKAGE = "locationwire.v1";
  private static final int PROTOCOL_VERSION = 1;
  private static final String OUTER_CLASS_LIST = "/locationwire-v1-outer-classes.txt";

  /** The default instance of every generated locationwire.v1 message, by full name. */
  private final Map<String, Message> prototypes = new TreeMap<>();
  /** JsonFormat's defaults: unknown JSON fields are errors; output leaves out fields at their default. */
  private final JsonFormat.Parser jsonParser = JsonFormat.parser();
  private final JsonFormat.Printer jsonPrinter = JsonFormat.printer();

  /**
   * Binary input is decoded from a byte array (ArrayDecoder, what parseFrom(byte[]) and parseFrom(ByteString) use)
   * unless this is set (--stream-decoder): then from an InputStream through a 9-byte buffer. A CodedInputStream
   * takes its 10-byte varint fast path only when at least 10 bytes are buffered, so with 9 every varint goes
   * through the byte-at-a-time readRawVarint64SlowPath. That isolates the fast path's misreading of 10-byte
   * varints (see conformance/failures/java-protobuf.txt). A diagnostic, not a matrix peer: hello says
   * "java-protobuf-stream".
   */
  private final boolean useStreamDecoder;

  private JavaTestee(boolean useStreamDecoder) throws IOException, ReflectiveOperationException {
    this.useStreamDecoder = useStreamDecoder;
    InputStream list = JavaTestee.class.getResourceAsStream(OUTER_CLASS_LIST);
    if (list == null) throw new IOException(OUTER_CLASS_LIST + " is not on the class path: run build.sh");
    String text;
    try (list) {
      text = new String(list.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (String line : text.split("\n")) {
      if (!line.isBlank()) collectMessages(Class.forName(line.trim()));
    }
    if (prototypes.isEmpty()) throw new IOException("no locationwire.v1 message classes found");
  }

  /** Adds every generated message class declared in `holder` (an outer class or a message), recursively. */
  private void collectMessages(Class<?> holder) throws ReflectiveOperationException {
    for (Class<?> nested : holder.getDeclaredClasses()) {
      if (!Message.class.isAssignableFrom(nested)) continue;  // builders, OrBuilder interfaces, enums
      Method getDefault = nested.getMethod("getDefaultInstance");
      if (!Modifier.isStatic(getDefault.getModifiers())) continue;
      Message prototype = (Message) getDefault.invoke(null);
      if (prototype.getDescriptorForType().getFile().getPackage().equals(MESSAGE_PACKAGE)) {
        prototypes.put(prototype.getDescriptorForType().getFullName(), prototype);
      }
      collectMessages(nested);
    }
  }

  /** The library's version, as build.sh found it (protobuf-java 3.21 has no run-time version constant). */
  private static String version() {
    try (InputStream in = JavaTestee.class.getResourceAsStream("/protobuf-java-version.txt")) {
      return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** True when the message or any message inside it carries fields this build does not know. */
  private static boolean hasUnknownFields(Message message) {
    if (!message.getUnknownFields().asMap().isEmpty()) return true;
    for (Map.Entry<FieldDescriptor, Object> entry : message.getAllFields().entrySet()) {
      if (entry.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) continue;
      if (entry.getKey().isRepeated()) {
        for (Object element : (List<?>) entry.getValue()) {
          if (hasUnknownFields((Message) element)) return true;
        }
      } else if (hasUnknownFields((Message) entry.getValue())) {
        return true;
      }
    }
    return false;
  }

  /** The canonical binary encoding: deterministic serialization (which orders map entries; LocationWire has none). */
  private static byte[] serializeDeterministic(Message message) throws IOException {
    byte[] out = new byte[message.getSerializedSize()];
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.useDeterministicSerialization();
    message.writeTo(coded);
    coded.checkNoSpaceLeft();
    return out;
  }

  private VectorResponse handleVector(VectorRequest request, boolean requestHasUnknownFields) throws IOException {
    VectorResponse.Builder response = VectorResponse.newBuilder().setVectorId(request.getVectorId());
    if (requestHasUnknownFields) {
      return response.setRuntimeError("request has unknown fields: this testee is older than the runner's protocol")
          .build();
    }
    // The checks first: an unknown one means the runner speaks a newer protocol.
    boolean wantBinary = false, wantJson = false;
    for (int value : request.getChecksValueList()) {
      Check check = Check.forNumber(value);
      if (check == null || check == Check.CHECK_UNSPECIFIED) {
        return response.setRuntimeError("unknown check " + value).build();
      }
      switch (check) {
        case CHECK_BINARY_OUTPUT: wantBinary = true; break;
        case CHECK_JSON_OUTPUT: wantJson = true; break;
        default:  // CHECK_VALIDATE, CHECK_COMPACT_TO_ROWS, CHECK_ROWS_TO_COMPACT: a codec only
          return response.setSkipped("check " + check.name() + " is not supported").build();
      }
    }
    Message prototype = prototypes.get(request.getMessageType());
    if (prototype == null) {
      return response.setSkipped("unknown message type \"" + request.getMessageType() + "\"").build();
    }
    Message message;
    switch (request.getInputCase()) {
      case BINARY_INPUT:
        try {
          message = useStreamDecoder
              ? parseThroughSmallBuffer(prototype, request.getBinaryInput())
              : prototype.getParserForType().parseFrom(request.getBinaryInput());
        } catch (InvalidProtocolBufferException e) {
          response.getParseErrorBuilder().setMessage(describe(e));
          return response.build();
        }
        break;
      case JSON_INPUT:
        try {
          Message.Builder builder = prototype.newBuilderForType();
          jsonParser.merge(request.getJsonInput(), builder);
          message = builder.build();
        } catch (InvalidProtocolBufferException e) {
          response.getParseErrorBuilder().setMessage(describe(e));
          return response.build();
        }  // an unchecked exception is the library's failure, not a verdict: serve() answers runtime_error
        break;
      default:
        return response.setRuntimeError("vector has no input").build();
    }
    var decoded = response.getDecodedBuilder();  // "decoded" even when no output is asked for
    if (wantBinary) decoded.setBinaryOutput(ByteString.copyFrom(serializeDeterministic(message)));
    if (wantJson) {
      try {
        decoded.setJsonOutput(jsonPrinter.print(message));
      } catch (InvalidProtocolBufferException e) {
        response.clearDecoded();
        return response.setRuntimeError("JsonFormat.printer failed: " + describe(e)).build();
      }
    }
    return response.build();
  }

  /** As Parser.parseFrom(InputStream) does, with a 9-byte buffer (see useStreamDecoder). */
  private static Message parseThroughSmallBuffer(Message prototype, ByteString input)
      throws InvalidProtocolBufferException {
    CodedInputStream coded = CodedInputStream.newInstance(input.newInput(), 9);
    Message message = prototype.getParserForType().parseFrom(coded);
    coded.checkLastTagWas(0);  // an end-group tag at the top level ends parsing early: refuse it, as parseFrom does
    return message;
  }

  private String implementation() {
    return useStreamDecoder ? STREAM_IMPLEMENTATION : IMPLEMENTATION;
  }

  private static String describe(Throwable e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  private TesteeResponse answer(TesteeRequest request) throws IOException {
    TesteeResponse.Builder response = TesteeResponse.newBuilder();
    boolean unknown = hasUnknownFields(request);
    String skipped = "a codec-only testee: no device or server engine";
    switch (request.getKindCase()) {
      case HELLO:
        if (unknown) {  // a hello cannot carry runtime_error: stop instead
          System.err.println("JavaTestee: hello has unknown fields: this testee is older than the runner's protocol");
          System.exit(2);
        }
        System.err.printf("%s %s: hello from runner \"%s\", protocol %d%n", implementation(), version(),
            request.getHello().getRunner(), request.getHello().getProtocolVersion());
        return response.setHello(HelloResponse.newBuilder()
            .setProtocolVersion(PROTOCOL_VERSION).setImplementation(implementation()).setVersion(version())
            .addFeatures(Feature.FEATURE_BINARY_INPUT).addFeatures(Feature.FEATURE_BINARY_OUTPUT)
            .addFeatures(Feature.FEATURE_JSON_INPUT).addFeatures(Feature.FEATURE_JSON_OUTPUT)).build();
      case VECTOR:
        return response.setVector(handleVector(request.getVector(), unknown)).build();
      // The behaviour families: this testee declares none of their features, so a runner does not send them;
      // an older or newer one might, and gets `skipped` in the response of the same kind.
      case SESSION:
        response.getSessionBuilder().setVectorId(request.getSession().getVectorId()).setSkipped(skipped);
        return response.build();
      case LEDGER:
        response.getLedgerBuilder().setVectorId(request.getLedger().getVectorId()).setSkipped(skipped);
        return response.build();
      case RECORDING:
        response.getRecordingBuilder().setVectorId(request.getRecording().getVectorId()).setSkipped(skipped);
        return response.build();
      case FENCES:
        response.getFencesBuilder().setVectorId(request.getFences().getVectorId()).setSkipped(skipped);
        return response.build();
      case PLANNING:
        response.getPlanningBuilder().setVectorId(request.getPlanning().getVectorId()).setSkipped(skipped);
        return response.build();
      case ARMING:
        response.getArmingBuilder().setVectorId(request.getArming().getVectorId()).setSkipped(skipped);
        return response.build();
      default:
        response.getVectorBuilder().setRuntimeError("request is neither hello nor vector"
            + (unknown ? " (it has fields this testee does not know: a newer runner?)" : ""));
        return response.build();
    }
  }

  /** Reads exactly buffer.length bytes; returns how many were read (fewer only at end of input). */
  private static int readFully(InputStream in, byte[] buffer) throws IOException {
    int done = 0;
    while (done < buffer.length) {
      int got = in.read(buffer, done, buffer.length - done);
      if (got < 0) break;
      done += got;
    }
    return done;
  }

  private void serve(InputStream in, OutputStream out) throws IOException {
    byte[] header = new byte[4];
    for (;;) {
      int got = readFully(in, header);
      if (got == 0) return;  // end of the session
      if (got != 4) throw new EOFException("input ends inside a length prefix");
      long size = (header[0] & 0xffL) | (header[1] & 0xffL) << 8 | (header[2] & 0xffL) << 16
          | (header[3] & 0xffL) << 24;
      if (size > Integer.MAX_VALUE - 8) throw new IOException("request of " + size + " bytes is too large");
      byte[] body = new byte[(int) size];
      if (readFully(in, body) != body.length) {
        throw new EOFException("input ends inside a request of " + size + " bytes");
      }
      TesteeResponse response;
      TesteeRequest request = null;
      try {
        request = TesteeRequest.parseFrom(body);
        response = answer(request);
      } catch (InvalidProtocolBufferException e) {
        response = TesteeResponse.newBuilder().setVector(VectorResponse.newBuilder()
            .setRuntimeError("cannot parse TesteeRequest: " + describe(e))).build();
      } catch (RuntimeException | IOException | StackOverflowError e) {
        // A bug here or an unchecked exception from the library costs one vector (as runtime_error), never the session.
        String id = request != null && request.hasVector() ? request.getVector().getVectorId() : "";
        response = TesteeResponse.newBuilder().setVector(VectorResponse.newBuilder().setVectorId(id)
            .setRuntimeError("exception: " + describe(e))).build();
      }
      byte[] bytes = response.toByteArray();
      int n = bytes.length;
      out.write(new byte[] {(byte) n, (byte) (n >>> 8), (byte) (n >>> 16), (byte) (n >>> 24)});
      out.write(bytes);
      out.flush();  // the runner waits for every response
    }
  }

  public static void main(String[] args) throws Exception {
    // Nothing but responses may reach stdout: anything a library prints goes to stderr instead.
    OutputStream stdout = new java.io.BufferedOutputStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 16);
    System.setOut(new PrintStream(System.err, true));
    boolean streamDecoder = false;
    for (String arg : args) {
      if (arg.equals("--stream-decoder")) {
        streamDecoder = true;
      } else {
        System.err.println("JavaTestee: unknown argument " + arg + " (the only one is --stream-decoder)");
        System.exit(2);
      }
    }
    JavaTestee testee = new JavaTestee(streamDecoder);
    try {
      testee.serve(new java.io.BufferedInputStream(System.in, 1 << 16), stdout);
    } catch (EOFException e) {
      System.err.println("JavaTestee: " + e.getMessage());
      System.exit(2);
    }
  }
}
