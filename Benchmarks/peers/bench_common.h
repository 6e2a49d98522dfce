/* Shared by bench_cpp, bench_c and bench_upb: the harness side of PROTOCOL.md. It reads the commands, loads the
 * workloads (NAME.meta.json, NAME.binpb.frames, NAME.json.frames), keeps the prepared state and the cursor of
 * every (workload, operation), runs the timing loop PROTOCOL.md shows, counts allocations and the peak resident
 * set for `memory`, and writes one JSON line per answer. A harness only describes its operations (prepare, run,
 * release) and calls bench_main. Plain C so every harness links the same object. */
#ifndef LOCATIONWIRE_BENCH_COMMON_H
#define LOCATIONWIRE_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One workload of the directory, loaded on its first use and kept until the harness exits. */
typedef struct {
  char *name;                   /* NAME */
  char *type;                   /* full message name, e.g. "locationwire.v1.LocationBatch" */
  long long fixes_per_input;    /* fixes each input holds; 0 for messages that are not batches */
  long long input_bytes;        /* total size of the binary inputs (checked against the frames) */
  long long canonical_bytes;    /* total size of their canonical encodings (what an encoder writes back) */
  long long json_bytes;         /* total size of the JSON texts (checked against the frames); 0 without them */
  size_t count;                 /* number of inputs, at least 1 */
  const uint8_t **inputs;       /* inputs[i]: the i-th binary input, sizes[i] bytes (inside one buffer) */
  size_t *sizes;
  const char **json;            /* json[i]: the i-th JSON text, json_sizes[i] bytes, not NUL-terminated; NULL when
                                   the workload has no NAME.json.frames */
  size_t *json_sizes;
  size_t max_size, max_json_size; /* the largest input and JSON text, in bytes */
} bench_workload;

/* What prepare reports. The harness sets `ok` to 0 with a `reason` when the operation does not apply to the
 * workload (an answer, not an error), and the checks PROTOCOL.md lists where they apply. */
typedef struct {
  int ok;                    /* preset to 1 */
  char reason[256];
  int has_checksum;          /* decode-read-all, decode-expand: the wrapping sum over all inputs */
  uint64_t checksum;
  int has_encoded_bytes;     /* an encode: the total size of its output over all inputs */
  unsigned long long encoded_bytes;
  int has_json_bytes;        /* json-print: the total size of the printed texts */
  unsigned long long json_bytes;
  char error[512];           /* set (with a -1 return) when prepare fails */
} bench_prepared;

typedef struct {
  const char *name;
  /* Loads and checks what the operation needs for this workload, outside any timing, into *state. Returns 0
   * (prepared, or not applicable with out->ok = 0) or -1 with out->error set (bench_prepare_error). */
  int (*prepare)(const bench_workload *w, void **state, bench_prepared *out);
  /* One iteration on input `input` (0 <= input < w->count). What it returns feeds the sink, so the work cannot be
   * dropped. Must not fail: prepare has checked every input. */
  uint64_t (*run)(void *state, const bench_workload *w, size_t input);
  /* Frees the state (may be NULL). Called when the same (workload, operation) is prepared again. */
  void (*release)(void *state);
} bench_operation;

typedef struct {
  const char *program;        /* for messages on stderr: "bench_cpp" */
  const char *implementation; /* the name the reports use: "cpp-libprotobuf" */
  const char *version;        /* the library's version */
  int warmup_ms;              /* the warm-up it wants before the first sample of an operation */
  const bench_operation *operations;
  size_t operation_count;
} bench_harness;

/* Parses `--workloads DIR`, then answers commands on stdin until end of input or `quit`. Returns the exit status
 * (0, or 2 for a bad command line). */
int bench_main(int argc, char **argv, const bench_harness *harness);

/* Something built once per workload and shared by the operations that need it (the encodes' decoded inputs), so
 * their states do not hold a copy each: the first acquire makes it with make(w, context), later ones on the same
 * workload return it, and the release that drops its last user frees it with destroy. */
void *bench_shared_acquire(const bench_workload *w, void *(*make)(const bench_workload *w, const void *context),
                           const void *context, void (*destroy)(void *data));
/* Drops one user of what bench_shared_acquire returned; NULL is ignored. */
void bench_shared_release(void *data);

/* Sets out->error to the message and returns -1, for `return bench_prepare_error(out, ...)` in prepare. */
int bench_prepare_error(bench_prepared *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets out->ok = 0 and out->reason, returns 0: the operation does not apply to this workload. */
int bench_prepare_skip(bench_prepared *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROGRAM: message" on stderr (exits 1 for bench_fail). */
void bench_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The wrapping sum's helpers for PROTOCOL.md's read-all checksum: a signed 32-bit value sign-extended, an
 * unsigned one zero-extended, a float's bit pattern, a double's. */
static inline uint64_t bench_i32(int32_t v) { return (uint64_t)(int64_t)v; }
static inline uint64_t bench_u32(uint32_t v) { return (uint64_t)v; }
static inline uint64_t bench_float_bits(float v) {
  uint32_t u;
  __builtin_memcpy(&u, &v, sizeof u);
  return u;
}
static inline uint64_t bench_double_bits(double v) {
  uint64_t u;
  __builtin_memcpy(&u, &v, sizeof u);
  return u;
}

#ifdef __cplusplus
}
#endif

#endif
