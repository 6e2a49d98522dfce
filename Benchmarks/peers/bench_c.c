/* bench_c: protobuf-c (generated code from protoc-c --c_out) behind the protocol of PROTOCOL.md. protobuf-c has
 * no registry by name, so build.sh lists every message descriptor of the generated headers in descriptors.inc.
 *
 * Operations (README.md has the table):
 *   decode        protobuf_c_message_unpack with the default allocator, then protobuf_c_message_free_unpacked
 *   encode        get_packed_size, malloc a buffer of that size, pack into it, free it
 *   encode-reuse  pack into one buffer allocated in prepare, as large as the largest input's encoding
 * The encodes start from the inputs unpacked in prepare, one message per input, shared by both encodes. */
#include <protobuf-c/protobuf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "headers.inc"

static const ProtobufCMessageDescriptor *const descriptors[] = {
#include "descriptors.inc"
};

static const ProtobufCMessageDescriptor *find_descriptor(const char *full_name) {
  for (size_t i = 0; i < sizeof descriptors / sizeof descriptors[0]; i++) {
    if (strcmp(descriptors[i]->name, full_name) == 0) return descriptors[i];
  }
  return NULL;
}

/* The inputs unpacked once per workload, shared by the encodes (so that their states do not hold a copy each) and
 * freed when the last of them is released. */
typedef struct {
  ProtobufCMessage **decoded; /* one per input */
  size_t count;
} shared_inputs;

/* Unpacks every input of w (prepare_state has checked that each does); for bench_shared_acquire. */
static void *unpack_inputs(const bench_workload *w, const void *descriptor) {
  shared_inputs *inputs = calloc(1, sizeof *inputs);
  inputs->count = w->count;
  inputs->decoded = calloc(w->count, sizeof *inputs->decoded);
  if (inputs->decoded == NULL) bench_fail("out of memory");
  for (size_t i = 0; i < w->count; i++) {
    inputs->decoded[i] = protobuf_c_message_unpack(descriptor, NULL, w->sizes[i], w->inputs[i]);
  }
  return inputs;
}

static void free_inputs(void *data) {
  shared_inputs *inputs = data;
  for (size_t i = 0; i < inputs->count; i++) protobuf_c_message_free_unpacked(inputs->decoded[i], NULL);
  free(inputs->decoded);
  free(inputs);
}

typedef struct {
  const ProtobufCMessageDescriptor *descriptor;
  shared_inputs *inputs; /* the encodes: every input unpacked; NULL for decode */
  uint8_t *buffer;       /* encode-reuse: room for the largest packed input */
} state;

static void release(void *opaque) {
  state *s = opaque;
  if (s == NULL) return;
  bench_shared_release(s->inputs);
  free(s->buffer);
  free(s);
}

/* The state of every operation: the descriptor, and (keep) every input unpacked. Also the check every operation
 * shares: each input unpacks, passes protobuf_c_message_check, and packs to exactly get_packed_size bytes; the
 * total packed size goes to *encoded (the encodes report it), the largest to *largest. */
static int prepare_state(const bench_workload *w, int keep, state **out, unsigned long long *encoded, size_t *largest,
                         bench_prepared *result) {
  const ProtobufCMessageDescriptor *descriptor = find_descriptor(w->type);
  if (descriptor == NULL) {
    return bench_prepare_error(result, "type %s has no protobuf-c descriptor (not a message of proto/locationwire/v1?)",
                               w->type);
  }
  state *s = calloc(1, sizeof *s);
  *out = s;
  s->descriptor = descriptor;
  *encoded = 0;
  *largest = 0;
  for (size_t i = 0; i < w->count; i++) {
    ProtobufCMessage *message = protobuf_c_message_unpack(descriptor, NULL, w->sizes[i], w->inputs[i]);
    if (message == NULL) return bench_prepare_error(result, "input %zu does not unpack", i);
    int checked = protobuf_c_message_check(message);
    size_t length = protobuf_c_message_get_packed_size(message);
    uint8_t *buffer = malloc(length ? length : 1);
    size_t packed = protobuf_c_message_pack(message, buffer);
    free(buffer);
    protobuf_c_message_free_unpacked(message, NULL);
    if (!checked) return bench_prepare_error(result, "input %zu fails protobuf_c_message_check", i);
    if (packed != length) {
      return bench_prepare_error(result, "input %zu packs to %zu bytes, get_packed_size said %zu", i, packed, length);
    }
    *encoded += packed;
    if (packed > *largest) *largest = packed;
  }
  if (keep) s->inputs = bench_shared_acquire(w, unpack_inputs, descriptor, free_inputs);
  return 0;
}

static int prepare_decode(const bench_workload *w, void **out, bench_prepared *result) {
  unsigned long long encoded;
  size_t largest;
  return prepare_state(w, 0, (state **)out, &encoded, &largest, result);
}

static uint64_t run_decode(void *opaque, const bench_workload *w, size_t i) {
  const state *s = opaque;
  ProtobufCMessage *message = protobuf_c_message_unpack(s->descriptor, NULL, w->sizes[i], w->inputs[i]);
  uint64_t result = (uintptr_t)message & 0xff;
  protobuf_c_message_free_unpacked(message, NULL);
  return result;
}

static int prepare_encode(const bench_workload *w, void **out, bench_prepared *result) {
  size_t largest;
  if (prepare_state(w, 1, (state **)out, &result->encoded_bytes, &largest, result) != 0) return -1;
  result->has_encoded_bytes = 1;
  return 0;
}

static uint64_t run_encode(void *opaque, const bench_workload *w, size_t i) {
  (void)w;
  const ProtobufCMessage *message = ((const state *)opaque)->inputs->decoded[i];
  size_t length = protobuf_c_message_get_packed_size(message);
  uint8_t *buffer = malloc(length ? length : 1);
  size_t packed = protobuf_c_message_pack(message, buffer);
  uint64_t result = packed + (packed ? buffer[packed - 1] : 0);
  free(buffer);
  return result;
}

static int prepare_encode_reuse(const bench_workload *w, void **out, bench_prepared *result) {
  size_t largest;
  if (prepare_state(w, 1, (state **)out, &result->encoded_bytes, &largest, result) != 0) return -1;
  result->has_encoded_bytes = 1;
  state *s = *out;
  s->buffer = calloc(largest ? largest : 1, 1);
  return 0;
}

static uint64_t run_encode_reuse(void *opaque, const bench_workload *w, size_t i) {
  (void)w;
  const state *s = opaque;
  size_t packed = protobuf_c_message_pack(s->inputs->decoded[i], s->buffer);
  return packed + s->buffer[0];
}

static const bench_operation operations[] = {
    {"decode", prepare_decode, run_decode, release},
    {"encode", prepare_encode, run_encode, release},
    {"encode-reuse", prepare_encode_reuse, run_encode_reuse, release},
};

int main(int argc, char **argv) {
  const bench_harness harness = {"bench_c", "c-protobuf-c", protobuf_c_version(), 200, operations,
                                 sizeof operations / sizeof operations[0]};
  return bench_main(argc, argv, &harness);
}
