/* bench_upb: native upb (the C runtime of the protobuf 7.36.2 sdist, built by conformance/testees/upb/build.sh at
 * -O3 -DNDEBUG) on the workloads of a directory. No code is generated: the MiniTables come from a upb_DefPool
 * loaded at start-up from the FileDescriptorSet that build-upb.sh compiles in as UPB_DESCRIPTORS.
 *
 * Operations (each checked once before it is timed: the result re-encodes to the workload's bytes):
 *   decode             a new arena, upb_Decode, upb_Arena_Free (what Python's FromString does per message)
 *   decode-block       the same in an arena whose first block is a buffer kept across operations
 *                      (upb_Arena_Init(buffer, ...)): no malloc while the message fits
 *   decode-read-all    decode, then read every field recursively through the MiniTable accessors
 *                      (upb_Message_GetField, upb_Message_GetArray, upb_Message_GetMessage) in a loop over the
 *                      MiniTable's fields with a switch on the type: generic code, slower than upb's generated
 *                      per-field accessors (which this harness has none of), faster than reflection by name
 *   encode             upb_Encode (deterministic) into a new arena, upb_Arena_Free
 *   encode-block       upb_Encode into an arena on a kept first block
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "upb/mem/arena.h"
#include "upb/message/accessors.h"
#include "upb/message/array.h"
#include "upb/message/message.h"
#include "upb/mini_table/field.h"
#include "upb/mini_table/message.h"
#include "upb/reflection/def.h"
#include "upb/wire/decode.h"
#include "upb/wire/encode.h"

#include "schema.h" /* conformance/testees/upb/ */

static const char *const implementation = "upb";
static const char *const operations[] = {"decode", "decode-block", "decode-read-all", "encode", "encode-block", NULL};
static const bench_options *options;
static upb_DefPool *pool;

enum { ENCODE_OPTIONS = kUpb_EncodeOption_Deterministic };

static void load_pool(void) {
  char error[512];
  pool = locwire_upb_load_pool(UPB_DESCRIPTORS, error, sizeof error);
  if (pool == NULL) bench_fail("%s (run build-upb.sh)", error);
}

typedef struct {
  const upb_MiniTable *table;
  const bench_workload *workload;
  const upb_Message *decoded; /* for the encodes, in `keep` */
  void *block;                /* the kept first block of the -block operations; NULL: a new arena each time */
  size_t block_size;
} context;

/* Folds every value of a message into a checksum, so no read can be dropped. */
static uint64_t read_all(const upb_Message *message, const upb_MiniTable *table);

static uint64_t read_value(upb_MessageValue v, const upb_MiniTableField *f) {
  switch (upb_MiniTableField_CType(f)) {
    case kUpb_CType_Bool: return v.bool_val;
    case kUpb_CType_Float: { uint32_t u; memcpy(&u, &v.float_val, 4); return u; }
    case kUpb_CType_Double: { uint64_t u; memcpy(&u, &v.double_val, 8); return u; }
    case kUpb_CType_Int32:
    case kUpb_CType_Enum: return (uint32_t)v.int32_val;
    case kUpb_CType_UInt32: return v.uint32_val;
    case kUpb_CType_Int64: return (uint64_t)v.int64_val;
    case kUpb_CType_UInt64: return v.uint64_val;
    case kUpb_CType_String:
    case kUpb_CType_Bytes: return v.str_val.size + (v.str_val.size ? (unsigned char)v.str_val.data[0] : 0);
    case kUpb_CType_Message: return v.msg_val != NULL ? read_all(v.msg_val, upb_MiniTable_SubMessage(f)) : 0;
  }
  return 0;
}

static uint64_t read_all(const upb_Message *message, const upb_MiniTable *table) {
  uint64_t sum = 0;
  int count = upb_MiniTable_FieldCount(table);
  for (int i = 0; i < count; i++) {
    const upb_MiniTableField *f = upb_MiniTable_GetFieldByIndex(table, (uint32_t)i);
    if (upb_MiniTableField_IsMap(f)) bench_fail("map fields are not read (the schema has none)");
    if (upb_MiniTableField_IsArray(f)) {
      const upb_Array *array = upb_Message_GetArray(message, f);
      size_t n = array != NULL ? upb_Array_Size(array) : 0;
      for (size_t j = 0; j < n; j++) sum = sum * 31 + read_value(upb_Array_Get(array, j), f);
    } else if (upb_MiniTableField_IsSubMessage(f)) {
      const upb_Message *sub = upb_Message_GetMessage(message, f);
      if (sub != NULL) sum = sum * 31 + read_all(sub, upb_MiniTable_SubMessage(f));
    } else {
      upb_MessageValue zero;
      memset(&zero, 0, sizeof zero);
      sum = sum * 31 + read_value(upb_Message_GetField(message, f, zero), f);
    }
  }
  return sum;
}

static upb_Message *decode_into(const context *c, upb_Arena *arena) {
  upb_Message *message = upb_Message_New(c->table, arena);
  if (message == NULL ||
      upb_Decode((const char *)c->workload->data, c->workload->size, message, c->table, NULL, 0, arena) !=
          kUpb_DecodeStatus_Ok) {
    bench_fail("%s: upb_Decode failed", c->workload->name);
  }
  return message;
}

/* The arena of one operation: on the kept block (the -block operations) or new. */
static upb_Arena *operation_arena(const context *c) {
  upb_Arena *arena = c->block != NULL ? upb_Arena_Init(c->block, c->block_size, &upb_alloc_global) : upb_Arena_New();
  if (arena == NULL) bench_fail("out of memory");
  return arena;
}

/* decode and decode-block. */
static void run_decode(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  for (uint64_t i = 0; i < iterations; i++) {
    upb_Arena *arena = operation_arena(c);
    bench_sink += (uintptr_t)decode_into(c, arena) & 0xff;
    upb_Arena_Free(arena);
  }
}

static void run_decode_read_all(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  for (uint64_t i = 0; i < iterations; i++) {
    upb_Arena *arena = operation_arena(c);
    bench_sink += read_all(decode_into(c, arena), c->table);
    upb_Arena_Free(arena);
  }
}

static size_t encode_into(const context *c, upb_Arena *arena, char **out) {
  size_t size = 0;
  if (upb_Encode(c->decoded, c->table, ENCODE_OPTIONS, arena, out, &size) != kUpb_EncodeStatus_Ok) {
    bench_fail("%s: upb_Encode failed", c->workload->name);
  }
  return size;
}

/* encode and encode-block. */
static void run_encode(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  for (uint64_t i = 0; i < iterations; i++) {
    upb_Arena *arena = operation_arena(c);
    char *out;
    size_t size = encode_into(c, arena, &out);
    bench_sink += size + (size ? (unsigned char)out[size - 1] : 0);
    upb_Arena_Free(arena);
  }
}

/* The check of every operation: what it produced re-encodes to exactly the workload's bytes. */
static void expect_input(const bench_workload *w, const char *operation, const upb_Message *message,
                         const upb_MiniTable *table) {
  upb_Arena *arena = upb_Arena_New();
  char *out = NULL;
  size_t size = 0;
  if (upb_Encode(message, table, ENCODE_OPTIONS, arena, &out, &size) != kUpb_EncodeStatus_Ok) {
    bench_fail("%s %s: check failed: upb_Encode failed", w->name, operation);
  }
  if (size != w->size || memcmp(out, w->data, size) != 0) {
    size_t at = 0;
    while (at < size && at < w->size && (unsigned char)out[at] == w->data[at]) at++;
    bench_fail("%s %s: check failed: %zu bytes re-encoded, the input has %zu; first difference at offset %zu", w->name,
               operation, size, w->size, at);
  }
  upb_Arena_Free(arena);
}

static void measure(const bench_workload *w, const char *operation, bench_run_fn run, context *c) {
  if (!bench_operation_selected(options, operation)) return;
  bench_result result;
  bench_measure(options, run, c, 1, &result);
  bench_print(implementation, UPB_SDIST_VERSION, w, operation, &result);
  bench_note("%-24s %-16s median %10.1f ns (p10 %.1f, p90 %.1f), %.2f MB/s, %.3f allocations/op", w->name, operation,
             result.median, result.p10, result.p90, w->size * 1e3 / result.median, result.allocations_per_op);
}

static void run_workload(const bench_workload *w) {
  const upb_MessageDef *def = upb_DefPool_FindMessageByName(pool, w->type);
  if (def == NULL) bench_fail("%s: type %s is not in %s", w->name, w->type, UPB_DESCRIPTORS);
  /* The kept first block: room for the decoded message several times over, so the -block operations do not
   * reach malloc (the allocation counts show whether they do). */
  context c = {upb_MessageDef_MiniTable(def), w, NULL, NULL, 64 * 1024 + 8 * w->size};
  context block = c;
  block.block = malloc(c.block_size);
  upb_Arena *keep = upb_Arena_New();
  if (block.block == NULL || keep == NULL) bench_fail("out of memory");
  c.decoded = block.decoded = decode_into(&c, keep);

  upb_Arena *check = operation_arena(&c);
  expect_input(w, "decode", decode_into(&c, check), c.table);
  upb_Arena_Free(check);
  check = operation_arena(&block);
  expect_input(w, "decode-block", decode_into(&block, check), c.table);
  upb_Arena_Free(check);
  expect_input(w, "encode", c.decoded, c.table);

  measure(w, "decode", run_decode, &c);
  measure(w, "decode-block", run_decode, &block);
  measure(w, "decode-read-all", run_decode_read_all, &c);
  measure(w, "encode", run_encode, &c);
  measure(w, "encode-block", run_encode, &block);
  upb_Arena_Free(keep);
  free(block.block);
}

int main(int argc, char **argv) {
  bench_set_program("bench_upb");
  bench_options parsed;
  bench_parse_args(argc, argv, operations, &parsed);
  options = &parsed;
  load_pool();
  bench_workload *workloads = NULL;
  size_t count = bench_load_workloads(options, &workloads);
  bench_note("upb %s (native, MiniTables from %s), %zu workloads, %d samples of >= %g ms", UPB_SDIST_VERSION,
             UPB_DESCRIPTORS, count, options->samples, options->min_sample_ms);
  for (size_t i = 0; i < count; i++) run_workload(&workloads[i]);
  return 0;
}
