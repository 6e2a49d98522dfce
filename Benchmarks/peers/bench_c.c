/* bench_c: protobuf-c (generated code from protoc-c --c_out) on the workloads of a directory. protobuf-c has no
 * registry by name, so build.sh lists every message descriptor of the generated headers in descriptors.inc.
 * See README.md for the operations. */
#include <protobuf-c/protobuf-c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "headers.inc"

static const ProtobufCMessageDescriptor *const descriptors[] = {
#include "descriptors.inc"
};

static const char *const implementation = "c-protobuf-c";
static const char *const operations[] = {"decode", "encode", "encode-reuse", NULL};

static const bench_options *options;

static const ProtobufCMessageDescriptor *find_descriptor(const char *full_name) {
  for (size_t i = 0; i < sizeof descriptors / sizeof descriptors[0]; i++) {
    if (strcmp(descriptors[i]->name, full_name) == 0) return descriptors[i];
  }
  return NULL;
}

static void expect_input_bytes(const bench_workload *w, const char *operation, const uint8_t *got, size_t length) {
  if (length == w->size && memcmp(got, w->data, length) == 0) return;
  size_t at = 0;
  while (at < length && at < w->size && got[at] == w->data[at]) at++;
  bench_fail("%s %s: check failed: the result re-encodes to %zu bytes, the input has %zu; first difference at "
             "offset %zu",
             w->name, operation, length, w->size, at);
}

/* Checks that a message packs to exactly the workload's bytes. */
static void expect_packs_to_input(const bench_workload *w, const char *operation, const ProtobufCMessage *message) {
  size_t length = protobuf_c_message_get_packed_size(message);
  uint8_t *buffer = malloc(length + 1);
  size_t packed = protobuf_c_message_pack(message, buffer);
  if (packed != length) {
    bench_fail("%s %s: check failed: pack wrote %zu bytes, get_packed_size said %zu", w->name, operation, packed, length);
  }
  expect_input_bytes(w, operation, buffer, length);
  free(buffer);
}

typedef struct {
  const ProtobufCMessageDescriptor *descriptor;
  const bench_workload *workload;
  const ProtobufCMessage *decoded;
  uint8_t *buffer; /* encode-reuse: preallocated, get_packed_size bytes */
} context;

/* decode: protobuf_c_message_unpack with the default allocator, then protobuf_c_message_free_unpacked. */
static void run_decode(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  const ProtobufCMessageDescriptor *descriptor = c->descriptor;
  const size_t size = c->workload->size;
  const uint8_t *data = c->workload->data;
  for (uint64_t i = 0; i < iterations; i++) {
    ProtobufCMessage *message = protobuf_c_message_unpack(descriptor, NULL, size, data);
    bench_sink += (uintptr_t)message & 0xff;
    protobuf_c_message_free_unpacked(message, NULL);
  }
}

/* encode: get_packed_size, malloc a buffer of that size, pack into it, free it. */
static void run_encode(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  const ProtobufCMessage *message = c->decoded;
  for (uint64_t i = 0; i < iterations; i++) {
    size_t length = protobuf_c_message_get_packed_size(message);
    uint8_t *buffer = malloc(length ? length : 1);
    size_t packed = protobuf_c_message_pack(message, buffer);
    bench_sink += packed ? buffer[packed - 1] : 0;
    free(buffer);
  }
}

/* encode-reuse: pack into a buffer allocated once (no get_packed_size of the top-level message). */
static void run_encode_reuse(void *ctx, uint64_t iterations) {
  const context *c = ctx;
  const ProtobufCMessage *message = c->decoded;
  uint8_t *buffer = c->buffer;
  for (uint64_t i = 0; i < iterations; i++) {
    size_t packed = protobuf_c_message_pack(message, buffer);
    bench_sink += packed + buffer[0];
  }
}

static void measure(const bench_workload *w, const char *operation, bench_run_fn run, context *c) {
  if (!bench_operation_selected(options, operation)) return;
  bench_result result;
  bench_measure(options, run, c, 1, &result);
  bench_print(implementation, protobuf_c_version(), w, operation, &result);
  bench_note("%-24s %-13s median %10.1f ns (p10 %.1f, p90 %.1f), %.2f MB/s, %.3f allocations/op", w->name, operation,
             result.median, result.p10, result.p90, w->size * 1e3 / result.median, result.allocations_per_op);
}

static void run_workload(const bench_workload *w) {
  const ProtobufCMessageDescriptor *descriptor = find_descriptor(w->type);
  if (descriptor == NULL) {
    bench_fail("%s: type %s has no protobuf-c descriptor (not a message of proto/locationwire/v1?)", w->name, w->type);
  }
  ProtobufCMessage *decoded = protobuf_c_message_unpack(descriptor, NULL, w->size, w->data);
  if (decoded == NULL) bench_fail("%s: protobuf_c_message_unpack failed on the input (%s)", w->name, w->type);
  if (!protobuf_c_message_check(decoded)) bench_fail("%s: protobuf_c_message_check failed on the decoded input", w->name);

  context c = {descriptor, w, decoded, NULL};

  /* The decode check: a fresh unpack packs back to the input. The encode checks: the kept message does. */
  ProtobufCMessage *fresh = protobuf_c_message_unpack(descriptor, NULL, w->size, w->data);
  if (fresh == NULL) bench_fail("%s decode: check failed: unpack returned NULL", w->name);
  expect_packs_to_input(w, "decode", fresh);
  protobuf_c_message_free_unpacked(fresh, NULL);
  expect_packs_to_input(w, "encode", decoded);
  measure(w, "decode", run_decode, &c);
  measure(w, "encode", run_encode, &c);

  size_t length = protobuf_c_message_get_packed_size(decoded);
  c.buffer = malloc(length + 1);
  memset(c.buffer, 0, length + 1);
  size_t packed = protobuf_c_message_pack(decoded, c.buffer);
  if (packed != length) bench_fail("%s encode-reuse: check failed: pack wrote %zu bytes, expected %zu", w->name, packed, length);
  expect_input_bytes(w, "encode-reuse", c.buffer, packed);
  measure(w, "encode-reuse", run_encode_reuse, &c);

  free(c.buffer);
  protobuf_c_message_free_unpacked(decoded, NULL);
}

int main(int argc, char **argv) {
  bench_set_program("bench_c");
  bench_options parsed;
  bench_parse_args(argc, argv, operations, &parsed);
  options = &parsed;
  bench_workload *workloads = NULL;
  size_t count = bench_load_workloads(options, &workloads);
  bench_note("protobuf-c %s, %zu message types, %zu workloads, %d samples of >= %g ms", protobuf_c_version(),
             sizeof descriptors / sizeof descriptors[0], count, options->samples, options->min_sample_ms);
  for (size_t i = 0; i < count; i++) run_workload(&workloads[i]);
  return 0;
}
