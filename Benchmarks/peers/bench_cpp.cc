// bench_cpp: Google's C++ protobuf (libprotobuf, generated code from protoc --cpp_out) on the workloads of a
// directory. Messages are looked up by full name in the generated pool; see README.md for the operations.
#include <google/protobuf/arena.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/util/json_util.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"

namespace pb = google::protobuf;

namespace {

const char *const kImplementation = "cpp-libprotobuf";
const char *const kOperations[] = {"decode-new",   "decode-arena", "decode-arena-block", "decode-arena-reset",
                                   "decode-reuse", "encode",       "encode-reuse",       "json-print",
                                   "json-parse",   nullptr};

// The first block of decode-arena-block's arenas: large enough for every workload's message (the largest, a
// 100,000-fix batch, takes about 12 MB on an arena), so a decode allocates nothing from the heap.
constexpr size_t kArenaBlockBytes = 32u << 20;

template <class F>
void Trampoline(void *ctx, uint64_t iterations) {
  F &operation = *static_cast<F *>(ctx);
  for (uint64_t i = 0; i < iterations; i++) operation();
}

// Fails loudly unless `got` is exactly the workload's bytes.
void ExpectInputBytes(const bench_workload &w, const char *operation, const std::string &got) {
  if (got.size() == w.size && std::memcmp(got.data(), w.data, w.size) == 0) return;
  size_t at = 0;
  while (at < got.size() && at < w.size && static_cast<unsigned char>(got[at]) == w.data[at]) at++;
  bench_fail("%s %s: check failed: the result re-encodes to %zu bytes, the input has %zu; first difference at "
             "offset %zu",
             w.name, operation, got.size(), w.size, at);
}

std::string Serialized(const bench_workload &w, const char *operation, const pb::Message &message) {
  std::string out;
  if (!message.SerializeToString(&out)) bench_fail("%s %s: check failed: SerializeToString failed", w.name, operation);
  return out;
}

class Harness {
 public:
  Harness(const bench_options &options, const std::string &version) : options_(options), version_(version) {}

  void Run(const bench_workload &w) {
    const pb::Descriptor *descriptor = pb::DescriptorPool::generated_pool()->FindMessageTypeByName(w.type);
    if (descriptor == nullptr) {
      bench_fail("%s: type %s is not in the generated pool (not a message of proto/locationwire/v1?)", w.name, w.type);
    }
    const pb::Message *prototype = pb::MessageFactory::generated_factory()->GetPrototype(descriptor);
    const unsigned char *data = w.data;
    const int size = static_cast<int>(w.size);

    // The decoded message every encode and print operation starts from.
    std::unique_ptr<pb::Message> decoded(prototype->New());
    if (!decoded->ParseFromArray(data, size)) bench_fail("%s: ParseFromArray failed on the input (%s)", w.name, w.type);

    // decode-new: ParseFromArray into a new heap message, then delete it.
    if (Selected("decode-new")) {
      std::unique_ptr<pb::Message> m(prototype->New());
      if (!m->ParseFromArray(data, size)) bench_fail("%s decode-new: check failed: ParseFromArray failed", w.name);
      ExpectInputBytes(w, "decode-new", Serialized(w, "decode-new", *m));
      auto op = [&] {
        pb::Message *message = prototype->New();
        bench_sink += message->ParseFromArray(data, size);
        delete message;
      };
      Measure(w, "decode-new", op);
    }

    // decode-arena: a new Arena (default options) per decode, the message created on it.
    if (Selected("decode-arena")) {
      {
        pb::Arena arena;
        pb::Message *m = prototype->New(&arena);
        if (!m->ParseFromArray(data, size)) bench_fail("%s decode-arena: check failed: ParseFromArray failed", w.name);
        ExpectInputBytes(w, "decode-arena", Serialized(w, "decode-arena", *m));
      }
      auto op = [&] {
        pb::Arena arena;
        pb::Message *message = prototype->New(&arena);
        bench_sink += message->ParseFromArray(data, size);
      };
      Measure(w, "decode-arena", op);
    }

    // decode-arena-block: a new Arena per decode whose first block is one buffer allocated once, as a server that
    // keeps a block per worker thread does; the arena only takes more from the heap when the block is full.
    if (Selected("decode-arena-block")) {
      std::vector<char> block(kArenaBlockBytes);
      pb::ArenaOptions arena_options;
      arena_options.initial_block = block.data();
      arena_options.initial_block_size = block.size();
      {
        pb::Arena arena(arena_options);
        pb::Message *m = prototype->New(&arena);
        if (!m->ParseFromArray(data, size)) bench_fail("%s decode-arena-block: check failed: ParseFromArray failed", w.name);
        ExpectInputBytes(w, "decode-arena-block", Serialized(w, "decode-arena-block", *m));
      }
      auto op = [&] {
        pb::Arena arena(arena_options);
        pb::Message *message = prototype->New(&arena);
        bench_sink += message->ParseFromArray(data, size);
      };
      Measure(w, "decode-arena-block", op);
    }

    // decode-arena-reset: one Arena for the whole run, Reset() after each decode. In libprotobuf 3.21 Reset()
    // frees every block the arena took from the heap (it keeps only a user-given initial block), so this costs
    // the same allocations as decode-arena (32 on the 1000-fix batch); decode-arena-block is the variant that
    // allocates nothing.
    if (Selected("decode-arena-reset")) {
      pb::Arena arena;
      for (int round = 0; round < 2; round++) {
        pb::Message *m = prototype->New(&arena);
        if (!m->ParseFromArray(data, size)) bench_fail("%s decode-arena-reset: check failed: ParseFromArray failed", w.name);
        ExpectInputBytes(w, "decode-arena-reset", Serialized(w, "decode-arena-reset", *m));
        arena.Reset();
      }
      auto op = [&] {
        pb::Message *message = prototype->New(&arena);
        bench_sink += message->ParseFromArray(data, size);
        arena.Reset();
      };
      Measure(w, "decode-arena-reset", op);
    }

    // decode-reuse: Clear() then ParseFromArray on one reused heap message.
    if (Selected("decode-reuse")) {
      std::unique_ptr<pb::Message> reused(prototype->New());
      for (int round = 0; round < 2; round++) {
        reused->Clear();
        if (!reused->ParseFromArray(data, size)) bench_fail("%s decode-reuse: check failed: ParseFromArray failed", w.name);
      }
      ExpectInputBytes(w, "decode-reuse", Serialized(w, "decode-reuse", *reused));
      pb::Message *message = reused.get();
      auto op = [&] {
        message->Clear();
        bench_sink += message->ParseFromArray(data, size);
      };
      Measure(w, "decode-reuse", op);
    }

    // encode: SerializeToString into a fresh std::string.
    if (Selected("encode")) {
      ExpectInputBytes(w, "encode", Serialized(w, "encode", *decoded));
      const pb::Message *message = decoded.get();
      auto op = [&] {
        std::string out;
        message->SerializeToString(&out);
        bench_sink += static_cast<unsigned char>(out.empty() ? 0 : out.back());
      };
      Measure(w, "encode", op);
    }

    // encode-reuse: SerializeToArray into a buffer of ByteSizeLong() bytes allocated once.
    if (Selected("encode-reuse")) {
      const size_t length = decoded->ByteSizeLong();
      std::vector<unsigned char> buffer(length + 1);
      if (!decoded->SerializeToArray(buffer.data(), static_cast<int>(length))) {
        bench_fail("%s encode-reuse: check failed: SerializeToArray failed", w.name);
      }
      ExpectInputBytes(w, "encode-reuse", std::string(buffer.begin(), buffer.begin() + length));
      const pb::Message *message = decoded.get();
      unsigned char *out = buffer.data();
      const int out_size = static_cast<int>(length);
      auto op = [&] {
        bench_sink += message->SerializeToArray(out, out_size);
        bench_sink += out[0];
      };
      Measure(w, "encode-reuse", op);
    }

    // json-print: util::MessageToJsonString with default options.
    std::string json;
    if (Selected("json-print") || Selected("json-parse")) {
      auto status = pb::util::MessageToJsonString(*decoded, &json);
      if (!status.ok()) bench_fail("%s json-print: check failed: %s", w.name, status.ToString().c_str());
      std::unique_ptr<pb::Message> back(prototype->New());
      status = pb::util::JsonStringToMessage(json, back.get());
      if (!status.ok()) bench_fail("%s json-parse: check failed: %s", w.name, status.ToString().c_str());
      ExpectInputBytes(w, "json-print/json-parse", Serialized(w, "json-parse", *back));
    }
    if (Selected("json-print")) {
      const pb::Message *message = decoded.get();
      auto op = [&] {
        std::string out;
        bench_sink += pb::util::MessageToJsonString(*message, &out).ok();
        bench_sink += out.size();
      };
      Measure(w, "json-print", op);
    }

    // json-parse: util::JsonStringToMessage (default options) of the JSON printed above, into a new heap message.
    if (Selected("json-parse")) {
      const std::string &input = json;
      auto op = [&] {
        pb::Message *message = prototype->New();
        bench_sink += pb::util::JsonStringToMessage(input, message).ok();
        delete message;
      };
      Measure(w, "json-parse", op);
    }
  }

 private:
  bool Selected(const char *operation) const { return bench_operation_selected(&options_, operation) != 0; }

  template <class F>
  void Measure(const bench_workload &w, const char *operation, F &op) {
    bench_result result;
    bench_measure(&options_, &Trampoline<F>, &op, 1, &result);
    bench_print(kImplementation, version_.c_str(), &w, operation, &result);
    bench_note("%-24s %-13s median %10.1f ns (p10 %.1f, p90 %.1f), %.2f MB/s, %.3f allocations/op", w.name, operation,
               result.median, result.p10, result.p90, w.size * 1e3 / result.median, result.allocations_per_op);
  }

  const bench_options &options_;
  const std::string version_;
};

}  // namespace

int main(int argc, char **argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  bench_set_program("bench_cpp");
  bench_options options;
  bench_parse_args(argc, argv, kOperations, &options);
  bench_workload *workloads = nullptr;
  size_t count = bench_load_workloads(&options, &workloads);
  const std::string version = pb::internal::VersionString(GOOGLE_PROTOBUF_VERSION);
  bench_note("libprotobuf %s, %zu workloads, %d samples of >= %g ms", version.c_str(), count, options.samples,
             options.min_sample_ms);
  Harness harness(options, version);
  for (size_t i = 0; i < count; i++) harness.Run(workloads[i]);
  pb::ShutdownProtobufLibrary();
  return 0;
}
