/* bench_upb: native upb (the C runtime of the protobuf 7.36.2 sdist, built by conformance/testees/upb/build.sh at
 * -O3 -DNDEBUG) behind the protocol of PROTOCOL.md. No code is generated: the MiniTables come from a upb_DefPool
 * loaded at start-up from the FileDescriptorSet that build-upb.sh compiles in as UPB_DESCRIPTORS.
 *
 * Operations (every prepare checks that every input decodes):
 *   decode             a new arena, upb_Decode, upb_Arena_Free (what Python's FromString does per message)
 *   decode-block       the same in an arena whose first block is a buffer kept across operations
 *                      (upb_Arena_Init(buffer, ...)), sized in prepare so that no operation reaches malloc
 *   decode-read-all    decode as decode-block does, then read every field recursively through the MiniTable
 *                      accessors (upb_Message_GetField, upb_Message_GetArray, upb_Message_GetMessage) in a loop
 *                      over the MiniTable's fields with a switch on the type, folding them into PROTOCOL.md's
 *                      checksum: generic code, slower than upb's generated per-field accessors (which this harness
 *                      has none of), faster than reflection by name. Unknown fields are not in the MiniTable, so
 *                      they are not read
 *   encode             upb_Encode (deterministic) of a message decoded in prepare into a new arena, upb_Arena_Free
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

enum { ENCODE_OPTIONS = kUpb_EncodeOption_Deterministic };

static upb_DefPool *pool;

/* The inputs decoded once per workload into one arena, shared by the encodes (so that their states do not hold a
 * copy each) and freed when the last of them is released. */
typedef struct {
  upb_Arena *arena;
  upb_Message **decoded; /* one per input */
} shared_inputs;

static void free_inputs(void *data) {
  shared_inputs *inputs = data;
  upb_Arena_Free(inputs->arena);
  free(inputs->decoded);
  free(inputs);
}

typedef struct {
  const upb_MiniTable *table;
  shared_inputs *inputs; /* the encodes: every input decoded */
  void *block;           /* the -block operations and read-all: the kept first block */
  size_t block_size;
} state;

static void release(void *opaque) {
  state *s = opaque;
  if (s == NULL) return;
  bench_shared_release(s->inputs);
  free(s->block);
  free(s);
}

/* PROTOCOL.md's read-all checksum: the wrapping sum of every field's contribution. */
static uint64_t read_all(const upb_Message *message, const upb_MiniTable *table);

static uint64_t read_value(upb_MessageValue v, const upb_MiniTableField *f) {
  switch (upb_MiniTableField_CType(f)) {
    case kUpb_CType_Bool: return v.bool_val;
    case kUpb_CType_Float: return bench_float_bits(v.float_val);
    case kUpb_CType_Double: return bench_double_bits(v.double_val);
    case kUpb_CType_Int32: /* int32, sint32, sfixed32 */
    case kUpb_CType_Enum: return bench_i32(v.int32_val);
    case kUpb_CType_UInt32: return bench_u32(v.uint32_val);
    case kUpb_CType_Int64: return (uint64_t)v.int64_val;
    case kUpb_CType_UInt64: return v.uint64_val;
    case kUpb_CType_String:
    case kUpb_CType_Bytes: return v.str_val.size;
    case kUpb_CType_Message: return v.msg_val != NULL ? read_all(v.msg_val, upb_MiniTable_SubMessage(f)) : 0;
  }
  return 0;
}

static uint64_t read_all(const upb_Message *message, const upb_MiniTable *table) {
  uint64_t sum = 0;
  int count = upb_MiniTable_FieldCount(table);
  for (int i = 0; i < count; i++) {
    const upb_MiniTableField *f = upb_MiniTable_GetFieldByIndex(table, (uint32_t)i);
    if (upb_MiniTableField_IsArray(f)) {
      const upb_Array *array = upb_Message_GetArray(message, f);
      size_t n = array != NULL ? upb_Array_Size(array) : 0;
      for (size_t j = 0; j < n; j++) sum += read_value(upb_Array_Get(array, j), f);
    } else if (upb_MiniTableField_IsSubMessage(f)) {
      const upb_Message *sub = upb_Message_GetMessage(message, f);
      if (sub != NULL) sum += read_all(sub, upb_MiniTable_SubMessage(f));
    } else {
      upb_MessageValue zero;
      memset(&zero, 0, sizeof zero);
      sum += read_value(upb_Message_GetField(message, f, zero), f);
    }
  }
  return sum;
}

/* read_all has no case for maps (the schema has none): prepare refuses a type that reaches one. */
static int reaches_map(const upb_MiniTable *table, int depth) {
  if (depth > 100) return 1; /* the schema is not recursive; a cycle would be a surprise worth refusing */
  int count = upb_MiniTable_FieldCount(table);
  for (int i = 0; i < count; i++) {
    const upb_MiniTableField *f = upb_MiniTable_GetFieldByIndex(table, (uint32_t)i);
    if (upb_MiniTableField_IsMap(f)) return 1;
    if (upb_MiniTableField_CType(f) == kUpb_CType_Message && reaches_map(upb_MiniTable_SubMessage(f), depth + 1)) {
      return 1;
    }
  }
  return 0;
}

/* Decodes input i into a new message on `arena`; NULL when it does not decode. */
static upb_Message *decode_into(const state *s, const bench_workload *w, size_t i, upb_Arena *arena) {
  upb_Message *message = upb_Message_New(s->table, arena);
  if (message == NULL ||
      upb_Decode((const char *)w->inputs[i], w->sizes[i], message, s->table, NULL, 0, arena) != kUpb_DecodeStatus_Ok) {
    return NULL;
  }
  return message;
}

/* The arena of one operation: on the kept block (the -block operations and read-all) or new. */
static upb_Arena *operation_arena(const state *s) {
  upb_Arena *arena = s->block != NULL ? upb_Arena_Init(s->block, s->block_size, &upb_alloc_global) : upb_Arena_New();
  if (arena == NULL) bench_fail("out of memory");
  return arena;
}

/* Decodes every input of w into a shared arena (prepare_state has checked that each decodes); for
 * bench_shared_acquire, with the operation's state as context. */
static void *decode_inputs(const bench_workload *w, const void *context) {
  shared_inputs *inputs = calloc(1, sizeof *inputs);
  inputs->arena = upb_Arena_New();
  inputs->decoded = calloc(w->count, sizeof *inputs->decoded);
  if (inputs->arena == NULL || inputs->decoded == NULL) bench_fail("out of memory");
  for (size_t i = 0; i < w->count; i++) inputs->decoded[i] = decode_into(context, w, i, inputs->arena);
  return inputs;
}

enum { KEEP = 1, BLOCK_FOR_DECODE = 2, BLOCK_FOR_ENCODE = 4 };

/* The state of every operation; checks that every input decodes. KEEP shares the decoded inputs (the encodes);
 * BLOCK_FOR_* sizes the kept first block as the most a new arena takes for the decode (or the encode) of one input,
 * plus 64 KiB for the arena's own header and slack. */
static int prepare_state(const bench_workload *w, int flags, void **out, bench_prepared *result) {
  const upb_MessageDef *def = upb_DefPool_FindMessageByName(pool, w->type);
  if (def == NULL) return bench_prepare_error(result, "type %s is not in %s", w->type, UPB_DESCRIPTORS);
  state *s = calloc(1, sizeof *s);
  *out = s;
  s->table = upb_MessageDef_MiniTable(def);
  size_t largest = 0;
  for (size_t i = 0; i < w->count; i++) {
    upb_Arena *arena = upb_Arena_New();
    upb_Message *message = decode_into(s, w, i, arena);
    if (message == NULL) {
      upb_Arena_Free(arena);
      return bench_prepare_error(result, "input %zu does not decode as %s", i, w->type);
    }
    size_t space = 0;
    if (flags & BLOCK_FOR_ENCODE) {
      upb_Arena *encode_arena = upb_Arena_New();
      char *bytes = NULL;
      size_t size = 0;
      if (upb_Encode(message, s->table, ENCODE_OPTIONS, encode_arena, &bytes, &size) != kUpb_EncodeStatus_Ok) {
        upb_Arena_Free(encode_arena);
        upb_Arena_Free(arena);
        return bench_prepare_error(result, "input %zu does not encode", i);
      }
      space = upb_Arena_SpaceAllocated(encode_arena, NULL);
      upb_Arena_Free(encode_arena);
    } else {
      space = upb_Arena_SpaceAllocated(arena, NULL);
    }
    if (space > largest) largest = space;
    upb_Arena_Free(arena);
  }
  if (flags & KEEP) s->inputs = bench_shared_acquire(w, decode_inputs, s, free_inputs);
  if (flags & (BLOCK_FOR_DECODE | BLOCK_FOR_ENCODE)) {
    s->block_size = largest + (64u << 10);
    s->block = malloc(s->block_size);
    if (s->block == NULL) bench_fail("out of memory");
  }
  return 0;
}

static int prepare_decode(const bench_workload *w, void **out, bench_prepared *result) {
  return prepare_state(w, 0, out, result);
}

static int prepare_decode_block(const bench_workload *w, void **out, bench_prepared *result) {
  return prepare_state(w, BLOCK_FOR_DECODE, out, result);
}

/* decode and decode-block. */
static uint64_t run_decode(void *opaque, const bench_workload *w, size_t i) {
  const state *s = opaque;
  upb_Arena *arena = operation_arena(s);
  uint64_t result = (uintptr_t)decode_into(s, w, i, arena) & 0xff;
  upb_Arena_Free(arena);
  return result;
}

static int prepare_decode_read_all(const bench_workload *w, void **out, bench_prepared *result) {
  if (prepare_state(w, BLOCK_FOR_DECODE, out, result) != 0) return -1;
  const state *s = *out;
  if (reaches_map(s->table, 0)) {
    return bench_prepare_error(result, "%s reaches a map field, which read_all does not read", w->type);
  }
  result->has_checksum = 1;
  for (size_t i = 0; i < w->count; i++) {
    upb_Arena *arena = upb_Arena_New();
    result->checksum += read_all(decode_into(s, w, i, arena), s->table);
    upb_Arena_Free(arena);
  }
  return 0;
}

static uint64_t run_decode_read_all(void *opaque, const bench_workload *w, size_t i) {
  const state *s = opaque;
  upb_Arena *arena = operation_arena(s);
  uint64_t result = read_all(decode_into(s, w, i, arena), s->table);
  upb_Arena_Free(arena);
  return result;
}

/* The encodes' check: the total size of the encodings of every input. */
static int prepare_encode_common(const bench_workload *w, int flags, void **out, bench_prepared *result) {
  if (prepare_state(w, KEEP | flags, out, result) != 0) return -1;
  const state *s = *out;
  result->has_encoded_bytes = 1;
  for (size_t i = 0; i < w->count; i++) {
    upb_Arena *arena = upb_Arena_New();
    char *bytes = NULL;
    size_t size = 0;
    upb_EncodeStatus status = upb_Encode(s->inputs->decoded[i], s->table, ENCODE_OPTIONS, arena, &bytes, &size);
    upb_Arena_Free(arena);
    if (status != kUpb_EncodeStatus_Ok) return bench_prepare_error(result, "input %zu does not encode", i);
    result->encoded_bytes += size;
  }
  return 0;
}

static int prepare_encode(const bench_workload *w, void **out, bench_prepared *result) {
  return prepare_encode_common(w, 0, out, result);
}

static int prepare_encode_block(const bench_workload *w, void **out, bench_prepared *result) {
  return prepare_encode_common(w, BLOCK_FOR_ENCODE, out, result);
}

/* encode and encode-block. */
static uint64_t run_encode(void *opaque, const bench_workload *w, size_t i) {
  (void)w;
  const state *s = opaque;
  upb_Arena *arena = operation_arena(s);
  char *bytes = NULL;
  size_t size = 0;
  upb_Encode(s->inputs->decoded[i], s->table, ENCODE_OPTIONS, arena, &bytes, &size);
  uint64_t result = size + (size ? (unsigned char)bytes[size - 1] : 0);
  upb_Arena_Free(arena);
  return result;
}

static const bench_operation operations[] = {
    {"decode", prepare_decode, run_decode, release},
    {"decode-block", prepare_decode_block, run_decode, release},
    {"decode-read-all", prepare_decode_read_all, run_decode_read_all, release},
    {"encode", prepare_encode, run_encode, release},
    {"encode-block", prepare_encode_block, run_encode, release},
};

int main(int argc, char **argv) {
  char error[512];
  pool = locwire_upb_load_pool(UPB_DESCRIPTORS, error, sizeof error);
  if (pool == NULL) {
    fprintf(stderr, "bench_upb: %s (run build-upb.sh)\n", error);
    return 1;
  }
  const bench_harness harness = {"bench_upb", "upb", UPB_SDIST_VERSION, 200, operations,
                                 sizeof operations / sizeof operations[0]};
  return bench_main(argc, argv, &harness);
}
