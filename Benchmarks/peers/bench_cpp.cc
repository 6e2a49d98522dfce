// bench_cpp: Google's C++ protobuf (libprotobuf, generated code from protoc --cpp_out) behind the protocol of
// PROTOCOL.md. Messages are looked up by full name in the generated pool; README.md has the table of operations,
// and each has its comment below. Every operation's prepare checks that every input parses.
#include <google/protobuf/arena.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "generated/bench_cpp_headers.inc"  // every generated header of proto/locationwire/v1

namespace pb = google::protobuf;
namespace v1 = locationwire::v1;

namespace {

// ---------------------------------------------------------------------------------------------------------------
// The read-all checksum of PROTOCOL.md: `Sum`, one function per message type, each reading every field of its
// .proto through the generated accessors, is generated from proto/ (generated/bench_cpp_fields.inc, included below
// with the compact expansion). Absent fields read as 0 and add nothing; unknown fields are not read.

uint64_t Str(const std::string &s) { return s.size(); }
uint64_t I64(int64_t v) { return static_cast<uint64_t>(v); }

// The checksum of a message of one of the three workload types (the caller has checked which).
enum class WorkloadType { kLocationBatch, kFenceEvent, kRegionAssignment, kOther };

WorkloadType TypeOf(const pb::Descriptor *d) {
  if (d == v1::LocationBatch::descriptor()) return WorkloadType::kLocationBatch;
  if (d == v1::FenceEvent::descriptor()) return WorkloadType::kFenceEvent;
  if (d == v1::RegionAssignment::descriptor()) return WorkloadType::kRegionAssignment;
  return WorkloadType::kOther;
}

// ---------------------------------------------------------------------------------------------------------------
// decode-expand: the rows of a CompactFixes, rebuilt as compact_fixes.proto's "Reconstruction" states.

// Receivers may refuse to expand more fixes than they hold; this is the reference implementation's limit.
constexpr uint32_t kMaxCompactCount = 1000000;

// Steps 1 and 3 for one column: checks the run lengths, the number of values M against the count N, and the
// presence bitmap; returns false when the column is malformed. *sparse tells whether a bitmap says which fixes
// have the field (otherwise fix k gets v[k]).
bool CheckColumn(const v1::FixColumn &c, bool explicit_presence, uint32_t n, bool *sparse) {
  const size_t d = static_cast<size_t>(c.deltas_size());
  uint64_t m = d;
  if (c.run_lengths_size() != 0) {
    if (static_cast<size_t>(c.run_lengths_size()) != d) return false;
    m = 0;
    for (uint32_t r : c.run_lengths()) {
      if (r == 0) return false;
      m += r;  // at most 2^31 entries of at most 2^32 - 1: no overflow
    }
  }
  if (m > n) return false;
  const std::string &presence = c.presence();
  *sparse = !presence.empty();
  if (presence.empty()) return m == 0 || m == n;
  if (!explicit_presence) return false;
  if (presence.size() != (static_cast<size_t>(n) + 7) / 8) return false;
  const auto *bits = reinterpret_cast<const unsigned char *>(presence.data());
  if (n % 8 != 0 && (bits[presence.size() - 1] >> (n % 8)) != 0) return false;
  uint64_t ones = 0;
  for (size_t i = 0; i < presence.size(); i++) ones += static_cast<unsigned>(__builtin_popcount(bits[i]));
  return ones == m;
}

// Steps 2 and 4: the running sum of the steps in wrapping 64-bit arithmetic, each value handed to set(fix, v),
// which checks that it fits the field and stores it; the k-th value goes to fix k, or with a bitmap to the k-th
// fix whose bit is set (CheckColumn made the number of set bits M).
template <class Set>
bool FillColumn(const v1::FixColumn &c, bool sparse, v1::LocationFix *const *rows, Set set) {
  const int64_t *deltas = c.deltas().data();
  const size_t d = static_cast<size_t>(c.deltas_size());
  const uint32_t *runs = c.run_lengths_size() != 0 ? c.run_lengths().data() : nullptr;
  const auto *bits = reinterpret_cast<const unsigned char *>(c.presence().data());
  uint64_t v = 0;
  size_t k = 0;     // the index of the next value; the next fix without a bitmap
  size_t byte = 0;  // with a bitmap: the byte of the next set bit, and its bits not yet used
  unsigned pending = sparse ? bits[0] : 0;
  for (size_t j = 0; j < d; j++) {
    const uint64_t step = static_cast<uint64_t>(deltas[j]);
    const uint32_t repeat = runs != nullptr ? runs[j] : 1;
    for (uint32_t t = 0; t < repeat; t++) {
      v += step;
      size_t fix = k++;
      if (sparse) {
        while (pending == 0) pending = bits[++byte];
        fix = byte * 8 + static_cast<unsigned>(__builtin_ctz(pending));
        pending &= pending - 1;
      }
      if (!set(rows[fix], v)) return false;
    }
  }
  return true;
}

bool FitsI32(uint64_t v) { return static_cast<int64_t>(v) == static_cast<int32_t>(v); }
bool FitsU32(uint64_t v) { return v <= UINT32_MAX; }

// One column: CheckColumn, then FillColumn with the setter. An absent column has M = 0: no fix has the field,
// or (for a field without explicit presence) every fix has 0, the default.
template <class Set>
bool Column(bool has, const v1::FixColumn &c, bool explicit_presence, uint32_t n, v1::LocationFix *const *rows,
            Set set) {
  if (!has) return true;
  bool sparse = false;
  if (!CheckColumn(c, explicit_presence, n, &sparse)) return false;
  return FillColumn(c, sparse, rows, set);
}

float FloatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// The per-field code, generated from proto/: `Sum` for every message, ExpandColumns (one Column call per
// LocationFix field, with its setter) and the future column range.
#include "generated/bench_cpp_fields.inc"

// Rebuilds the fixes of `compact` as `rows` (new LocationFix messages on rows' arena); false when the columns do
// not rebuild (the rows are then incomplete).
bool Expand(const v1::CompactFixes &compact, pb::RepeatedPtrField<v1::LocationFix> *rows) {
  const uint32_t n = compact.count();
  if (n > kMaxCompactCount) return false;
  // A column numbered in the reserved range is a LocationFix field this schema does not know: the rows cannot be
  // rebuilt without loss (compact_fixes.proto).
  const pb::UnknownFieldSet &unknown = compact.GetReflection()->GetUnknownFields(compact);
  for (int i = 0; i < unknown.field_count(); i++) {
    const int number = unknown.field(i).number();
    if (number >= static_cast<int>(kFirstFutureColumn) && number <= static_cast<int>(kLastFutureColumn)) return false;
  }
  const int before = rows->size();
  rows->Reserve(before + static_cast<int>(n));
  for (uint32_t i = 0; i < n; i++) rows->Add();
  // With n = 0 every column must be empty (CheckColumn), so r is never read.
  v1::LocationFix *const *r = n != 0 ? &*(rows->pointer_begin() + before) : nullptr;
  return ExpandColumns(compact, n, r);
}

// ---------------------------------------------------------------------------------------------------------------
// Operations.

// The state of one prepared (workload, operation).
struct State {
  const pb::Message *prototype = nullptr;
  WorkloadType type = WorkloadType::kOther;
  std::vector<std::unique_ptr<pb::Message>> decoded;  // prepare's own decodes (NewState with keep)
  std::shared_ptr<const std::vector<std::unique_ptr<pb::Message>>> inputs;  // the encodes, json-print
  std::vector<std::string> json;                      // json-parse: the texts, as std::string (the API's input)
  std::unique_ptr<pb::Message> reused;                // decode-reuse
  std::unique_ptr<pb::Arena> arena;                   // decode-arena-reset
  char *block = nullptr;                              // the -block operations: the kept initial block
  size_t block_size = 0;
  std::vector<unsigned char> buffer;                  // encode-reuse
  ~State() { std::free(block); }
};

void Release(void *state) { delete static_cast<State *>(state); }

const pb::Message *Prototype(const bench_workload *w) {
  const pb::Descriptor *d = pb::DescriptorPool::generated_pool()->FindMessageTypeByName(w->type);
  return d != nullptr ? pb::MessageFactory::generated_factory()->GetPrototype(d) : nullptr;
}

bool Parse(const bench_workload *w, size_t i, pb::Message *into) {
  return into->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
}

// Makes the state, with the prototype of the workload's type; checks that every input parses (a new heap
// message each) and keeps the messages when `keep`.
State *NewState(const bench_workload *w, bool keep, bench_prepared *out, int *status) {
  auto state = std::make_unique<State>();
  state->prototype = Prototype(w);
  *status = -1;
  if (state->prototype == nullptr) {
    bench_prepare_error(out, "type %s is not in the generated pool (not a message of proto/locationwire/v1?)", w->type);
    return nullptr;
  }
  state->type = TypeOf(state->prototype->GetDescriptor());
  for (size_t i = 0; i < w->count; i++) {
    std::unique_ptr<pb::Message> m(state->prototype->New());
    if (!Parse(w, i, m.get())) {
      bench_prepare_error(out, "input %zu does not parse as %s", i, w->type);
      return nullptr;
    }
    if (keep) state->decoded.push_back(std::move(m));
  }
  *status = 0;
  return state.release();
}

// The arena first block of the -block operations: as much as the largest input takes on a default arena (with
// what `extra` adds, e.g. the rebuilt rows), plus 64 KiB, so that an operation allocates nothing from the heap.
// `memory` shows whether it does.
template <class Extra>
void SizeBlock(State *state, const bench_workload *w, Extra extra) {
  size_t largest = 0;
  for (size_t i = 0; i < w->count; i++) {
    pb::Arena arena;
    pb::Message *m = state->prototype->New(&arena);
    Parse(w, i, m);
    extra(m);
    largest = std::max(largest, static_cast<size_t>(arena.SpaceAllocated()));
  }
  state->block_size = largest + (64u << 10);
  state->block = static_cast<char *>(std::malloc(state->block_size));
  if (state->block == nullptr) bench_fail("out of memory");
}

pb::ArenaOptions BlockOptions(const State *s) {
  pb::ArenaOptions options;
  options.initial_block = s->block;
  options.initial_block_size = s->block_size;
  return options;
}

// The inputs decoded once per workload (a new heap message each), shared by the operations that start from a
// decoded message (the encodes and json-print) so that their states do not hold a copy each; freed when the last
// of them is released. NewState has checked that every input parses.
std::shared_ptr<const std::vector<std::unique_ptr<pb::Message>>> SharedInputs(const bench_workload *w,
                                                                               const pb::Message &prototype) {
  using Decoded = std::vector<std::unique_ptr<pb::Message>>;
  static std::map<const bench_workload *, std::weak_ptr<const Decoded>> cache;
  if (auto kept = cache[w].lock()) return kept;
  auto decoded = std::make_shared<Decoded>();
  for (size_t i = 0; i < w->count; i++) {
    decoded->emplace_back(prototype.New());
    Parse(w, i, decoded->back().get());
  }
  cache[w] = decoded;
  return decoded;
}

// decode-new and decode-arena need only the prototype.
int PrepareDecode(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  *out = NewState(w, false, result, &status);
  return status;
}

// decode-new: ParseFromArray into a new heap message, then delete it.
uint64_t RunDecodeNew(void *opaque, const bench_workload *w, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Message *m = s->prototype->New();
  uint64_t result = m->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
  delete m;
  return result;
}

// decode-arena: a new Arena (default options) per decode, the message created on it.
uint64_t RunDecodeArena(void *opaque, const bench_workload *w, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Arena arena;
  pb::Message *m = s->prototype->New(&arena);
  return m->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
}

// decode-arena-block: a new Arena per decode whose first block is one buffer allocated once, as a server that
// keeps a block per worker thread does; the arena takes more from the heap only when the block is full.
int PrepareDecodeArenaBlock(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, false, result, &status);
  *out = s;
  if (status == 0) SizeBlock(s, w, [](pb::Message *) {});
  return status;
}

uint64_t RunDecodeArenaBlock(void *opaque, const bench_workload *w, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Arena arena(BlockOptions(s));
  pb::Message *m = s->prototype->New(&arena);
  return m->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
}

// decode-arena-reset: one Arena for the whole run, Reset() after each decode. In libprotobuf 3.21 Reset() frees
// every block the arena took from the heap (it keeps only a user-given initial block), so this costs the
// allocations of decode-arena; decode-arena-block is the variant that allocates nothing.
int PrepareDecodeArenaReset(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, false, result, &status);
  *out = s;
  if (status == 0) s->arena = std::make_unique<pb::Arena>();
  return status;
}

uint64_t RunDecodeArenaReset(void *opaque, const bench_workload *w, size_t i) {
  State *s = static_cast<State *>(opaque);
  pb::Message *m = s->prototype->New(s->arena.get());
  uint64_t result = m->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
  s->arena->Reset();
  return result;
}

// decode-reuse: Clear() then ParseFromArray on one heap message kept across operations (and inputs).
int PrepareDecodeReuse(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, false, result, &status);
  *out = s;
  if (status == 0) s->reused.reset(s->prototype->New());
  return status;
}

uint64_t RunDecodeReuse(void *opaque, const bench_workload *w, size_t i) {
  State *s = static_cast<State *>(opaque);
  s->reused->Clear();
  return s->reused->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
}

uint64_t ChecksumOf(WorkloadType type, const pb::Message &m) {
  switch (type) {
    case WorkloadType::kLocationBatch: return Sum(static_cast<const v1::LocationBatch &>(m));
    case WorkloadType::kFenceEvent: return Sum(static_cast<const v1::FenceEvent &>(m));
    case WorkloadType::kRegionAssignment: return Sum(static_cast<const v1::RegionAssignment &>(m));
    case WorkloadType::kOther: break;
  }
  return 0;
}

// decode-read-all: decode as decode-arena-block does, then read every field through the generated accessors
// (the Sum functions above). The checksum of prepare is the wrapping sum over all inputs.
int PrepareDecodeReadAll(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, true, result, &status);
  *out = s;
  if (status != 0) return status;
  if (s->type == WorkloadType::kOther) {
    return bench_prepare_skip(result, "no read-all visitor for %s (only LocationBatch, FenceEvent, RegionAssignment)",
                              w->type);
  }
  result->has_checksum = 1;
  for (const auto &m : s->decoded) result->checksum += ChecksumOf(s->type, *m);
  s->decoded.clear();
  SizeBlock(s, w, [](pb::Message *) {});
  return 0;
}

uint64_t RunDecodeReadAll(void *opaque, const bench_workload *w, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Arena arena(BlockOptions(s));
  pb::Message *m = s->prototype->New(&arena);
  m->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
  return ChecksumOf(s->type, *m);
}

// decode-expand: decode as decode-arena-block does, then rebuild the compact fixes as LocationFix rows in the
// batch's `fixes` (on the same arena). The timed operation returns the number of rows; prepare's checksum is
// that of the rebuilt rows over all inputs.
int PrepareDecodeExpand(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, true, result, &status);
  *out = s;
  if (status != 0) return status;
  if (s->type != WorkloadType::kLocationBatch) return bench_prepare_skip(result, "not a LocationBatch");
  for (size_t i = 0; i < w->count; i++) {
    const auto &batch = static_cast<const v1::LocationBatch &>(*s->decoded[i]);
    if (!batch.has_compact_fixes()) return bench_prepare_skip(result, "input %zu has no compact_fixes", i);
  }
  result->has_checksum = 1;
  for (size_t i = 0; i < w->count; i++) {
    pb::Arena arena;
    auto *batch = pb::Arena::CreateMessage<v1::LocationBatch>(&arena);
    Parse(w, i, batch);
    pb::RepeatedPtrField<v1::LocationFix> *rows = batch->mutable_fixes();
    const int before = rows->size();
    if (!Expand(batch->compact_fixes(), rows)) {
      return bench_prepare_error(result, "input %zu: the compact fixes do not rebuild", i);
    }
    for (int k = before; k < rows->size(); k++) result->checksum += Sum(rows->Get(k));
  }
  s->decoded.clear();
  SizeBlock(s, w, [](pb::Message *m) {
    auto *batch = static_cast<v1::LocationBatch *>(m);
    Expand(batch->compact_fixes(), batch->mutable_fixes());
  });
  return 0;
}

uint64_t RunDecodeExpand(void *opaque, const bench_workload *w, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Arena arena(BlockOptions(s));
  auto *batch = pb::Arena::CreateMessage<v1::LocationBatch>(&arena);
  batch->ParseFromArray(w->inputs[i], static_cast<int>(w->sizes[i]));
  return Expand(batch->compact_fixes(), batch->mutable_fixes()) + static_cast<uint64_t>(batch->fixes_size());
}

// The encodes' check: the total size of the encodings of every input, and the largest.
int PrepareEncodeCommon(const bench_workload *w, void **out, bench_prepared *result, size_t *largest) {
  int status;
  State *s = NewState(w, false, result, &status);
  *out = s;
  if (status != 0) return status;
  s->inputs = SharedInputs(w, *s->prototype);
  result->has_encoded_bytes = 1;
  *largest = 0;
  for (const auto &m : *s->inputs) {
    std::string bytes;
    if (!m->SerializeToString(&bytes)) return bench_prepare_error(result, "SerializeToString failed");
    result->encoded_bytes += bytes.size();
    *largest = std::max(*largest, bytes.size());
  }
  return 0;
}

// encode: SerializeToString into a fresh std::string.
int PrepareEncode(const bench_workload *w, void **out, bench_prepared *result) {
  size_t largest;
  return PrepareEncodeCommon(w, out, result, &largest);
}

uint64_t RunEncode(void *opaque, const bench_workload *, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  std::string out;
  (*s->inputs)[i]->SerializeToString(&out);
  return out.size() + static_cast<unsigned char>(out.empty() ? 0 : out.back());
}

// encode-reuse: SerializeToArray into one buffer allocated in prepare, as large as the largest encoding.
int PrepareEncodeReuse(const bench_workload *w, void **out, bench_prepared *result) {
  size_t largest;
  if (PrepareEncodeCommon(w, out, result, &largest) != 0) return -1;
  static_cast<State *>(*out)->buffer.assign(largest + 1, 0);
  return 0;
}

uint64_t RunEncodeReuse(void *opaque, const bench_workload *, size_t i) {
  State *s = static_cast<State *>(opaque);
  const pb::Message &m = *(*s->inputs)[i];
  unsigned char *out = s->buffer.data();
  return m.SerializeToArray(out, static_cast<int>(m.ByteSizeLong())) + out[0];
}

// json-print: util::MessageToJsonString with default options. Its check is the total size of the texts; a text
// that differs from the workload's (LocationWire's printer, documented to match C++'s) is noted on stderr.
int PrepareJsonPrint(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, false, result, &status);
  *out = s;
  if (status != 0) return status;
  // The workloads without JSON texts (the scaling batches) measure binary only (PROTOCOL.md).
  if (w->json == nullptr) return bench_prepare_skip(result, "the workload has no JSON texts (binary only)");
  s->inputs = SharedInputs(w, *s->prototype);
  result->has_json_bytes = 1;
  size_t differ = 0;
  for (size_t i = 0; i < w->count; i++) {
    std::string text;
    auto printed = pb::util::MessageToJsonString(*(*s->inputs)[i], &text);
    if (!printed.ok()) return bench_prepare_error(result, "input %zu: %s", i, printed.ToString().c_str());
    result->json_bytes += text.size();
    if (text.size() != w->json_sizes[i] || std::memcmp(text.data(), w->json[i], text.size()) != 0) {
      differ++;
    }
  }
  if (differ != 0) {
    bench_note("%s json-print: %zu of %zu texts differ from NAME.json.frames", w->name, differ, w->count);
  }
  return 0;
}

uint64_t RunJsonPrint(void *opaque, const bench_workload *, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  std::string out;
  pb::util::MessageToJsonString(*(*s->inputs)[i], &out);
  return out.size();
}

// json-parse: util::JsonStringToMessage (default options) of the workload's JSON text into a new heap message,
// then delete it. The check: every text parses to the message its binary input decodes to, unknown fields aside
// (JSON has none).
int PrepareJsonParse(const bench_workload *w, void **out, bench_prepared *result) {
  int status;
  State *s = NewState(w, true, result, &status);
  *out = s;
  if (status != 0) return status;
  if (w->json == nullptr) return bench_prepare_skip(result, "the workload has no JSON texts (binary only)");
  for (size_t i = 0; i < w->count; i++) {
    s->json.emplace_back(w->json[i], w->json_sizes[i]);
    std::unique_ptr<pb::Message> parsed(s->prototype->New());
    auto status_parse = pb::util::JsonStringToMessage(s->json.back(), parsed.get());
    if (!status_parse.ok()) return bench_prepare_error(result, "text %zu: %s", i, status_parse.ToString().c_str());
    s->decoded[i]->DiscardUnknownFields();
    if (parsed->SerializeAsString() != s->decoded[i]->SerializeAsString()) {
      return bench_prepare_error(result, "text %zu parses to another message than input %zu decodes to", i, i);
    }
  }
  s->decoded.clear();
  return 0;
}

uint64_t RunJsonParse(void *opaque, const bench_workload *, size_t i) {
  const State *s = static_cast<const State *>(opaque);
  pb::Message *m = s->prototype->New();
  uint64_t result = pb::util::JsonStringToMessage(s->json[i], m).ok();
  delete m;
  return result;
}

const bench_operation kOperations[] = {
    {"decode-new", PrepareDecode, RunDecodeNew, Release},
    {"decode-arena", PrepareDecode, RunDecodeArena, Release},
    {"decode-arena-block", PrepareDecodeArenaBlock, RunDecodeArenaBlock, Release},
    {"decode-arena-reset", PrepareDecodeArenaReset, RunDecodeArenaReset, Release},
    {"decode-reuse", PrepareDecodeReuse, RunDecodeReuse, Release},
    {"decode-read-all", PrepareDecodeReadAll, RunDecodeReadAll, Release},
    {"decode-expand", PrepareDecodeExpand, RunDecodeExpand, Release},
    {"encode", PrepareEncode, RunEncode, Release},
    {"encode-reuse", PrepareEncodeReuse, RunEncodeReuse, Release},
    {"json-print", PrepareJsonPrint, RunJsonPrint, Release},
    {"json-parse", PrepareJsonParse, RunJsonParse, Release},
};

}  // namespace

int main(int argc, char **argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  static const std::string version = pb::internal::VersionString(GOOGLE_PROTOBUF_VERSION);
  const bench_harness harness = {"bench_cpp", "cpp-libprotobuf", version.c_str(), 200, kOperations,
                                 sizeof kOperations / sizeof kOperations[0]};
  int status = bench_main(argc, argv, &harness);
  pb::ShutdownProtobufLibrary();
  return status;
}
