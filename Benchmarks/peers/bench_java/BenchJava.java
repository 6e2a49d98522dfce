// bench_java: Google's Java protobuf runtime (protobuf-java, with protobuf-java-util's JsonFormat) as a benchmark
// harness speaking Benchmarks/peers/PROTOCOL.md on stdin/stdout.
//
//   Benchmarks/peers/build-java.sh && Benchmarks/peers/build-java/bench_java --workloads DIR
//
// Message types are the classes protoc --java_out generated from proto/locationwire/v1 (build-java.sh takes them
// from conformance/testees/java/build.sh, with the list of their outer classes and the library's version). One
// operation per iteration:
//   decode        Parser.parseFrom(byte[]) of the type's generated parser: a new immutable message
//   encode        toByteArray() of a message decoded in prepare (a new byte[] of getSerializedSize())
//   encode-reuse  writeTo(CodedOutputStream.newInstance(buffer, 0, size)) into one byte[] kept across operations
//   json-print    JsonFormat.printer().omittingInsignificantWhitespace().print(message): a String
//   json-parse    JsonFormat.parser().merge(text, builder), then build(): the input's JSON text as a String
// Every message is immutable once built, and protobuf-java memoizes its serialized size in it: the encodes of a
// message decoded in prepare do not size it again (that is how the library encodes a message it keeps).

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.util.JsonFormat;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class BenchJava {
  private static final String IMPLEMENTATION = "java-protobuf";
  /**
   * The warm-up hello asks for, in ms. HotSpot runs a method interpreted, then compiled by C1 with profiling, and
   * compiles it with C2 only after 5,000 to 15,000 invocations (Tier4InvocationThreshold, Tier4CompileThreshold)
   * or 40,000 loop back-edges (Tier4BackEdgeThreshold), in a compiler thread that shares this machine's 2 cores.
   * On the larger workloads an operation takes a millisecond or more, so 200 ms (what the native harnesses ask
   * for) can end before C2's code for the parser and the serializer is installed, and the first samples would
   * time C1's code.
   */
  private static final int WARMUP_MS = 2000;

  /** A message the loop's result goes to after the second clock read, so that the JIT cannot drop the work. */
  private static volatile Object sink;

  private final Path directory;
  private final Map<String, Workload> workloads = new HashMap<>();
  /** Prepared (workload, operation) pairs by "WORKLOAD OPERATION"; each keeps its own cursor. */
  private final Map<String, Prepared> prepared = new HashMap<>();
  private final List<String> outerClasses;
  private final JsonFormat.Printer jsonPrinter = JsonFormat.printer().omittingInsignificantWhitespace();
  private final JsonFormat.Parser jsonParser = JsonFormat.parser();
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private BenchJava(Path directory) throws IOException {
    this.directory = directory;
    outerClasses = new ArrayList<>();
    for (String line : resource("/locationwire-v1-outer-classes.txt").split("\n")) {
      if (!line.isBlank()) outerClasses.add(line.trim());
    }
    if (outerClasses.isEmpty()) throw new IOException("the list of generated outer classes is empty");
    if (!threads.isThreadAllocatedMemorySupported()) throw new IOException("this JVM cannot count allocated bytes");
    threads.setThreadAllocatedMemoryEnabled(true);
  }

  /** A text file build-java.sh put on the class path. */
  private static String resource(String name) throws IOException {
    try (InputStream in = BenchJava.class.getResourceAsStream(name)) {
      if (in == null) throw new IOException(name + " is not on the class path: run Benchmarks/peers/build-java.sh");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  // --- workloads -------------------------------------------------------------------------------------------------

  /** One workload's inputs as the directory holds them, and what the operations derive from them (lazily). */
  private static final class Workload {
    final String name;
    final JsonObject meta;
    final Message prototype;
    final Parser<? extends Message> parser;
    final byte[][] inputs;
    /** The inputs decoded; made by the first prepare that needs them (encode, json-print, json-parse's check). */
    Message[] messages;
    /** The JSON texts of NAME.json.frames; null until json-parse is prepared. */
    String[] jsonTexts;

    Workload(String name, JsonObject meta, Message prototype, byte[][] inputs) {
      this.name = name;
      this.meta = meta;
      this.prototype = prototype;
      this.parser = prototype.getParserForType();
      this.inputs = inputs;
    }

    long metaLong(String key) throws IOException {
      JsonElement value = meta.get(key);
      if (value == null || !value.isJsonPrimitive() || !value.getAsJsonPrimitive().isNumber()) {
        throw new IOException(name + ".meta.json has no number \"" + key + "\"");
      }
      return value.getAsLong();
    }

    /** Every input decoded; an IOException names the first that does not decode. */
    Message[] decodeAll() throws IOException {
      Message[] decoded = new Message[inputs.length];
      for (int i = 0; i < inputs.length; i++) {
        try {
          decoded[i] = parser.parseFrom(inputs[i]);
        } catch (InvalidProtocolBufferException e) {
          throw new IOException(name + " input " + i + " does not decode as "
              + prototype.getDescriptorForType().getFullName() + ": " + e.getMessage());
        }
      }
      return decoded;
    }

    /** The decoded inputs the encodes and the JSON operations start from, kept once made. */
    Message[] messages() throws IOException {
      if (messages == null) messages = decodeAll();
      return messages;
    }
  }

  private Workload workload(String name) throws IOException, ReflectiveOperationException {
    Workload workload = workloads.get(name);
    if (workload != null) return workload;
    if (name.isEmpty() || name.contains("/")) throw new IOException("bad workload name \"" + name + "\"");
    JsonObject meta;
    try {
      meta = JsonParser.parseString(Files.readString(directory.resolve(name + ".meta.json"))).getAsJsonObject();
    } catch (NoSuchFileException e) {
      throw new IOException("no workload " + name + " in " + directory);
    } catch (RuntimeException e) {  // gson's JsonParseException or IllegalStateException: not a JSON object
      throw new IOException(name + ".meta.json: " + e.getMessage());
    }
    JsonElement type = meta.get("type");
    if (type == null || !type.isJsonPrimitive()) throw new IOException(name + ".meta.json has no \"type\"");
    byte[][] inputs = readFrames(directory.resolve(name + ".binpb.frames"));
    workload = new Workload(name, meta, prototype(type.getAsString()), inputs);
    if (inputs.length != workload.metaLong("inputs")) {
      throw new IOException(name + ": " + inputs.length + " frames, meta says " + workload.metaLong("inputs"));
    }
    long total = 0;
    for (byte[] input : inputs) total += input.length;
    if (total != workload.metaLong("input_bytes")) {
      throw new IOException(name + ": " + total + " input bytes, meta says " + workload.metaLong("input_bytes"));
    }
    workloads.put(name, workload);
    return workload;
  }

  /** A file of frames: each a 4-byte little-endian length and that many bytes, to the end of the file. */
  private static byte[][] readFrames(Path path) throws IOException {
    ByteBuffer data = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
    List<byte[]> frames = new ArrayList<>();
    while (data.hasRemaining()) {
      if (data.remaining() < 4) throw new IOException(path + ": a frame's length is cut off");
      int length = data.getInt();
      if (length < 0 || length > data.remaining()) throw new IOException(path + ": a frame runs past the end");
      byte[] frame = new byte[length];
      data.get(frame);
      frames.add(frame);
    }
    return frames.toArray(new byte[0][]);
  }

  /**
   * The default instance of a generated message type, by full name ("locationwire.v1.LocationBatch"). Java has no
   * registry of generated types by name: protoc nests every message class in its file's outer class (and nested
   * messages in their parent), so the class is OUTER$Message or OUTER$Parent$Child for one of the listed outers.
   */
  private Message prototype(String fullName) throws IOException, ReflectiveOperationException {
    String prefix = "locationwire.v1.";
    if (!fullName.startsWith(prefix)) throw new IOException("type " + fullName + " is not in locationwire.v1");
    String nested = fullName.substring(prefix.length()).replace('.', '$');
    for (String outer : outerClasses) {
      Class<?> type;
      try {
        type = Class.forName(outer + "$" + nested);
      } catch (ClassNotFoundException e) {
        continue;
      }
      if (!Message.class.isAssignableFrom(type)) continue;
      Message prototype = (Message) type.getMethod("getDefaultInstance").invoke(null);
      if (prototype.getDescriptorForType().getFullName().equals(fullName)) return prototype;
    }
    throw new IOException("type " + fullName + " is not a generated message of proto/locationwire/v1");
  }

  // --- operations ------------------------------------------------------------------------------------------------

  /** A prepared (workload, operation): what its loop reads, and its cursor, which persists across runs. */
  private static final class Prepared {
    final Workload workload;
    final Operation operation;
    int cursor;
    /** encode-reuse: the output buffer, as long as the largest encoding. */
    byte[] buffer;

    Prepared(Workload workload, Operation operation) {
      this.workload = workload;
      this.operation = operation;
    }
  }

  /**
   * Each operation's timing loop is its own method, so that HotSpot profiles and compiles each call site for the
   * one operation it serves. Every loop is the protocol's: nothing but the operation and the cursor between the
   * two clock reads, the results kept in a local that goes to the sink after the second read.
   */
  private enum Operation {
    DECODE("decode") {
      @Override
      long loop(BenchJava bench, Prepared p, int iterations) throws IOException {
        final byte[][] inputs = p.workload.inputs;
        final Parser<? extends Message> parser = p.workload.parser;
        int cursor = p.cursor;
        Message last = null;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          last = parser.parseFrom(inputs[cursor]);
          if (++cursor == inputs.length) cursor = 0;
        }
        long elapsed = System.nanoTime() - start;
        p.cursor = cursor;
        sink = last;
        return elapsed;
      }
    },
    ENCODE("encode") {
      @Override
      long loop(BenchJava bench, Prepared p, int iterations) {
        final Message[] messages = p.workload.messages;
        int cursor = p.cursor;
        byte[] last = null;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          last = messages[cursor].toByteArray();
          if (++cursor == messages.length) cursor = 0;
        }
        long elapsed = System.nanoTime() - start;
        p.cursor = cursor;
        sink = last;
        return elapsed;
      }
    },
    /**
     * Into a byte[] kept across operations. CodedOutputStream has no way to restart over the same array, so each
     * operation makes a new one (one small object); the message's memoized size bounds the write.
     */
    ENCODE_REUSE("encode-reuse") {
      @Override
      long loop(BenchJava bench, Prepared p, int iterations) throws IOException {
        final Message[] messages = p.workload.messages;
        final byte[] buffer = p.buffer;
        int cursor = p.cursor;
        long written = 0;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          Message message = messages[cursor];
          CodedOutputStream out = CodedOutputStream.newInstance(buffer, 0, message.getSerializedSize());
          message.writeTo(out);
          written += out.getTotalBytesWritten();
          if (++cursor == messages.length) cursor = 0;
        }
        long elapsed = System.nanoTime() - start;
        p.cursor = cursor;
        sink = written;
        return elapsed;
      }
    },
    JSON_PRINT("json-print") {
      @Override
      long loop(BenchJava bench, Prepared p, int iterations) throws IOException {
        final Message[] messages = p.workload.messages;
        final JsonFormat.Printer printer = bench.jsonPrinter;
        int cursor = p.cursor;
        String last = null;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          last = printer.print(messages[cursor]);
          if (++cursor == messages.length) cursor = 0;
        }
        long elapsed = System.nanoTime() - start;
        p.cursor = cursor;
        sink = last;
        return elapsed;
      }
    },
    JSON_PARSE("json-parse") {
      @Override
      long loop(BenchJava bench, Prepared p, int iterations) throws IOException {
        final String[] texts = p.workload.jsonTexts;
        final Message prototype = p.workload.prototype;
        final JsonFormat.Parser parser = bench.jsonParser;
        int cursor = p.cursor;
        Message last = null;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
          Message.Builder builder = prototype.newBuilderForType();
          parser.merge(texts[cursor], builder);
          last = builder.build();
          if (++cursor == texts.length) cursor = 0;
        }
        long elapsed = System.nanoTime() - start;
        p.cursor = cursor;
        sink = last;
        return elapsed;
      }
    };

    final String wireName;

    Operation(String wireName) {
      this.wireName = wireName;
    }

    /** Runs the operation `iterations` times from the cursor on; returns the elapsed monotonic ns. */
    abstract long loop(BenchJava bench, Prepared p, int iterations) throws IOException;

    static Operation named(String name) {
      for (Operation operation : values()) {
        if (operation.wireName.equals(name)) return operation;
      }
      return null;
    }
  }

  /** Loads and checks what the operation needs; the answer's checks, or ok:false when it does not apply. */
  private JsonObject prepare(String workloadName, String operationName)
      throws IOException, ReflectiveOperationException {
    Operation operation = Operation.named(operationName);
    if (operation == null) throw new IOException("unknown operation " + operationName);
    Workload w = workload(workloadName);
    boolean json = operation == Operation.JSON_PRINT || operation == Operation.JSON_PARSE;
    Path frames = directory.resolve(w.name + ".json.frames");
    if (json && !Files.exists(frames)) {
      JsonObject skip = new JsonObject();
      skip.addProperty("ok", false);
      skip.addProperty("reason",
          "the workload has no JSON texts (" + w.name + ".json.frames): it measures binary only");
      return skip;
    }
    JsonObject answer = new JsonObject();
    Prepared p = new Prepared(w, operation);
    // Every input must decode, whatever the operation; decode itself keeps no decoded messages.
    Message[] messages = operation == Operation.DECODE ? w.decodeAll() : w.messages();
    switch (operation) {
      case DECODE:
        break;
      case ENCODE:
      case ENCODE_REUSE: {
        long total = 0;
        int largest = 0;
        for (int i = 0; i < messages.length; i++) {
          byte[] encoded = messages[i].toByteArray();
          if (!w.parser.parseFrom(encoded).equals(messages[i])) {
            throw new IOException(w.name + " input " + i + ": its encoding decodes to a different message");
          }
          total += encoded.length;
          largest = Math.max(largest, encoded.length);
        }
        if (total != w.metaLong("canonical_bytes")) {
          throw new IOException(w.name + ": the encodings total " + total + " bytes, meta canonical_bytes is "
              + w.metaLong("canonical_bytes"));
        }
        if (operation == Operation.ENCODE_REUSE) p.buffer = new byte[largest];
        answer.addProperty("encoded_bytes", total);
        break;
      }
      case JSON_PRINT:
      case JSON_PARSE: {
        if (w.jsonTexts == null) {
          byte[][] raw = readFrames(frames);
          if (raw.length != w.inputs.length) {
            throw new IOException(w.name + ": " + raw.length + " JSON texts for " + w.inputs.length + " inputs");
          }
          String[] texts = new String[raw.length];
          for (int i = 0; i < raw.length; i++) texts[i] = new String(raw[i], StandardCharsets.UTF_8);
          w.jsonTexts = texts;
        }
        long printedBytes = 0;
        int differing = 0;
        for (int i = 0; i < messages.length; i++) {
          // JSON carries no unknown fields: compare what the binary and the JSON input print as (Java prints
          // every double so that it reads back to the same value, so equal texts are equal values).
          String printed = jsonPrinter.print(messages[i]);
          if (!printJson(w, w.jsonTexts[i]).equals(printed)) {
            throw new IOException(w.name + " input " + i + ": its JSON text parses to a different message");
          }
          printedBytes += printed.getBytes(StandardCharsets.UTF_8).length;
          if (!printed.equals(w.jsonTexts[i])) {
            differing++;
            if (!printJson(w, printed).equals(printed)) {
              throw new IOException(w.name + " input " + i + ": the printed JSON parses to a different message");
            }
          }
        }
        if (operation == Operation.JSON_PRINT) {
          answer.addProperty("json_bytes", printedBytes);
          if (differing > 0) {
            note(w.name + " json-print: " + differing + " of " + messages.length + " texts differ from "
                + w.name + ".json.frames (" + printedBytes + " bytes against " + w.metaLong("json_bytes")
                + "); each parses back to the same message");
          }
        }
        break;
      }
    }
    prepared.put(workloadName + " " + operationName, p);
    JsonObject ok = new JsonObject();
    ok.addProperty("ok", true);
    for (Map.Entry<String, JsonElement> check : answer.entrySet()) ok.add(check.getKey(), check.getValue());
    return ok;
  }

  /** The JSON text parsed as the workload's type and printed again. */
  private String printJson(Workload w, String text) throws InvalidProtocolBufferException {
    Message.Builder builder = w.prototype.newBuilderForType();
    jsonParser.merge(text, builder);
    return jsonPrinter.print(builder.build());
  }

  private Prepared preparedFor(String workload, String operation) throws IOException {
    Prepared p = prepared.get(workload + " " + operation);
    if (p == null) throw new IOException(workload + " " + operation + " was not prepared");
    return p;
  }

  private JsonObject run(String workload, String operation, int iterations) throws IOException {
    Prepared p = preparedFor(workload, operation);
    JsonObject answer = new JsonObject();
    answer.addProperty("ns", p.operation.loop(this, p, iterations));
    return answer;
  }

  /**
   * Allocated bytes per operation from HotSpot's per-thread counter (exact up to the TLAB bookkeeping: it counts
   * every byte the thread allocated, including in the JIT's runtime calls). The JVM keeps no count of objects
   * without instrumenting every allocation, so allocations is null. peak_rss_kib is the whole process's: mostly
   * the Java heap's pages touched so far, not the operation's own footprint.
   */
  private JsonObject memory(String workload, String operation, int iterations) throws IOException {
    Prepared p = preparedFor(workload, operation);
    Files.writeString(Path.of("/proc/self/clear_refs"), "5");
    long before = threads.getCurrentThreadAllocatedBytes();
    p.operation.loop(this, p, iterations);
    long after = threads.getCurrentThreadAllocatedBytes();
    long peak = -1;
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) peak = Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
    if (peak < 0) throw new IOException("/proc/self/status has no VmHWM");
    JsonObject answer = new JsonObject();
    answer.add("allocations", null);
    answer.addProperty("allocated_bytes", (double) (after - before) / iterations);
    answer.addProperty("peak_rss_kib", peak);
    return answer;
  }

  private JsonObject hello() throws IOException {
    JsonObject answer = new JsonObject();
    answer.addProperty("implementation", IMPLEMENTATION);
    answer.addProperty("version", resource("/protobuf-java-version.txt"));
    com.google.gson.JsonArray operations = new com.google.gson.JsonArray();
    for (Operation operation : Operation.values()) operations.add(operation.wireName);
    answer.add("operations", operations);
    answer.addProperty("warmup_ms", WARMUP_MS);
    List<String> collectors = new ArrayList<>();
    for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) collectors.add(collector.getName());
    answer.addProperty("notes", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version")
        + ", " + ManagementFactory.getCompilationMXBean().getName() + ", collectors " + collectors + ", flags "
        + ManagementFactory.getRuntimeMXBean().getInputArguments()
        + "; allocations are not counted (null): the JVM counts allocated bytes per thread, not objects");
    return answer;
  }

  // --- the command loop ------------------------------------------------------------------------------------------

  private static void note(String message) {
    System.err.println("bench_java: " + message);
  }

  private static int iterations(String word) throws IOException {
    try {
      int value = Integer.parseInt(word);
      if (value >= 1) return value;
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new IOException("ITERATIONS must be a positive 32-bit integer, got \"" + word + "\"");
  }

  /**
   * release WORKLOAD: drops its inputs and every operation prepared on it, so that the heap the collector works on
   * (and the peak resident set) holds one workload at a time, as a program would.
   */
  private JsonObject release(String workload) {
    workloads.remove(workload);
    prepared.keySet().removeIf(key -> key.startsWith(workload + " "));
    System.gc();
    JsonObject answer = new JsonObject();
    answer.addProperty("ok", true);
    return answer;
  }

  /** The answer to one command line, or null for quit. */
  private JsonObject answer(String line) throws IOException, ReflectiveOperationException {
    String[] words = line.split(" ", -1);
    switch (words[0]) {
      case "hello":
        if (words.length == 1) return hello();
        break;
      case "prepare":
        if (words.length == 3) return prepare(words[1], words[2]);
        break;
      case "run":
        if (words.length == 4) return run(words[1], words[2], iterations(words[3]));
        break;
      case "memory":
        if (words.length == 4) return memory(words[1], words[2], iterations(words[3]));
        break;
      case "release":
        if (words.length == 2) return release(words[1]);
        break;
      case "quit":
        if (words.length == 1) return null;
        break;
      default:
        throw new IOException("unknown command \"" + words[0] + "\"");
    }
    throw new IOException("wrong number of words for " + words[0] + ": \"" + line + "\"");
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2 || !args[0].equals("--workloads")) {
      note("usage: bench_java --workloads DIR");
      System.exit(2);
    }
    Path directory = Path.of(args[1]);
    if (!Files.isDirectory(directory)) {
      note("cannot open workload directory " + directory);
      System.exit(1);
    }
    BenchJava bench = new BenchJava(directory);
    Gson gson = new GsonBuilder().serializeNulls().disableHtmlEscaping().create();
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      JsonObject answer;
      try {
        answer = bench.answer(line);
      } catch (IOException | ReflectiveOperationException | RuntimeException e) {
        answer = new JsonObject();
        answer.addProperty("error", e.getMessage() != null ? e.getMessage() : e.toString());
      }
      if (answer == null) break;
      out.println(gson.toJson(answer));
      out.flush();
    }
    out.flush();
  }
}
