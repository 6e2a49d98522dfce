/* See bench_common.h and PROTOCOL.md. */
#define _GNU_SOURCE
#include "bench_common.h"
#include "CMallocCounter.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every timed loop adds the results of its iterations into this after its second clock read. */
volatile uint64_t bench_sink;

static const char *program = "bench";

static void vnote(const char *fmt, va_list args) {
  fprintf(stderr, "%s: ", program);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
}

void bench_fail(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vnote(fmt, args);
  va_end(args);
  exit(1);
}

void bench_note(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vnote(fmt, args);
  va_end(args);
}

int bench_prepare_error(bench_prepared *out, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(out->error, sizeof out->error, fmt, args);
  va_end(args);
  return -1;
}

int bench_prepare_skip(bench_prepared *out, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(out->reason, sizeof out->reason, fmt, args);
  va_end(args);
  out->ok = 0;
  return 0;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Answers: one JSON line each, flushed. */

/* Appends s as a JSON string (quotes, backslashes and control characters escaped; other bytes as they are). */
static void put_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
    } else if (c < 0x20 || c == 0x7f) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

static void answer_end(void) {
  putchar('\n');
  fflush(stdout);
}

static void answer_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void answer_error(const char *fmt, ...) {
  char message[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  bench_note("error: %s", message);
  printf("{\"error\": ");
  put_json_string(message);
  putchar('}');
  answer_end();
}

/* ---------------------------------------------------------------------------------------------------------------
 * Workloads. */

static const char *workloads_dir;

/* Reads a whole file; NULL with *error set when it cannot. Files above 2 GiB are refused: no workload comes near,
 * and every frame length must fit an int for the libraries' int-sized parse calls. */
static unsigned char *read_file(const char *path, size_t *size, int *missing, char *error, size_t error_size) {
  FILE *file = fopen(path, "rb");
  if (missing) *missing = file == NULL && errno == ENOENT;
  if (file == NULL) {
    snprintf(error, error_size, "cannot open %s: %s", path, strerror(errno));
    return NULL;
  }
  size_t capacity = 1 << 16, length = 0;
  unsigned char *data = malloc(capacity);
  for (;;) {
    if (length == capacity) {
      if (capacity >= (size_t)INT_MAX) {
        snprintf(error, error_size, "%s is larger than 2 GiB", path);
        free(data);
        fclose(file);
        return NULL;
      }
      capacity *= 2;
      data = realloc(data, capacity);
    }
    if (data == NULL) bench_fail("out of memory reading %s", path);
    size_t got = fread(data + length, 1, capacity - length, file);
    length += got;
    if (got == 0) break;
  }
  int failed = ferror(file);
  fclose(file);
  if (failed) {
    snprintf(error, error_size, "cannot read %s", path);
    free(data);
    return NULL;
  }
  *size = length;
  return data;
}

/* Splits a frames file (4-byte little-endian length, then that many bytes, to the end) into *count frames whose
 * starts and sizes are returned; every length is checked against the bytes that remain. Returns 0, or -1 with
 * *error set. */
static int split_frames(const char *path, const unsigned char *data, size_t size, const uint8_t ***starts,
                        size_t **sizes, size_t *count, char *error, size_t error_size) {
  size_t n = 0, at = 0;
  while (at < size) {
    if (size - at < 4) {
      snprintf(error, error_size, "%s: %zu bytes at offset %zu are too few for a frame length", path, size - at, at);
      return -1;
    }
    uint32_t length = (uint32_t)data[at] | (uint32_t)data[at + 1] << 8 | (uint32_t)data[at + 2] << 16 |
                      (uint32_t)data[at + 3] << 24;
    if (length > size - at - 4) {
      snprintf(error, error_size, "%s: the frame at offset %zu claims %" PRIu32 " bytes, %zu remain", path, at, length,
               size - at - 4);
      return -1;
    }
    at += 4 + (size_t)length;
    n++;
  }
  *starts = calloc(n ? n : 1, sizeof **starts);
  *sizes = calloc(n ? n : 1, sizeof **sizes);
  at = 0;
  for (size_t i = 0; i < n; i++) {
    size_t length =
        (size_t)data[at] | (size_t)data[at + 1] << 8 | (size_t)data[at + 2] << 16 | (size_t)data[at + 3] << 24;
    (*starts)[i] = data + at + 4;
    (*sizes)[i] = length;
    at += 4 + length;
  }
  *count = n;
  return 0;
}

/* A small JSON reader for the metadata object: its string and integer members by name; every other member is
 * skipped whatever its value. */
typedef struct {
  const char *p, *start, *end;
  char *error;
  size_t error_size;
  int failed;
} json_reader;

static void json_error(json_reader *r, const char *what) {
  if (!r->failed) snprintf(r->error, r->error_size, "%s at offset %ld", what, (long)(r->p - r->start));
  r->failed = 1;
  r->p = r->end;
}

static void json_space(json_reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

/* Reads a string; returns it (malloc'd, escapes decoded for ASCII, \u kept as '?') when keep is set. */
static char *json_string(json_reader *r, int keep) {
  json_space(r);
  if (r->p >= r->end || *r->p != '"') {
    json_error(r, "expected a string");
    return keep ? strdup("") : NULL;
  }
  r->p++;
  size_t capacity = 32, length = 0;
  char *out = keep ? malloc(capacity) : NULL;
  for (;;) {
    if (r->p >= r->end) {
      json_error(r, "unterminated string");
      break;
    }
    char c = *r->p++;
    if (c == '"') break;
    if ((unsigned char)c < 0x20) {
      json_error(r, "control character in a string");
      break;
    }
    if (c == '\\') {
      char e = r->p < r->end ? *r->p++ : 0;
      switch (e) {
        case '"': case '\\': case '/': c = e; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u':
          for (int i = 0; i < 4; i++) {
            if (r->p >= r->end || !isxdigit((unsigned char)*r->p)) {
              json_error(r, "bad \\u escape");
              break;
            }
            r->p++;
          }
          c = '?';
          break;
        default: json_error(r, "bad escape");
      }
      if (r->failed) break;
    }
    if (keep) {
      if (length + 2 > capacity) out = realloc(out, capacity *= 2);
      out[length++] = c;
    }
  }
  if (keep) out[length] = '\0';
  return out;
}

static void json_skip_value(json_reader *r, int depth) {
  if (depth > 64) {
    json_error(r, "nested too deeply");
    return;
  }
  json_space(r);
  if (r->p >= r->end) {
    json_error(r, "expected a value");
    return;
  }
  char c = *r->p;
  if (c == '"') {
    json_string(r, 0);
  } else if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    r->p++;
    json_space(r);
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return;
    }
    while (!r->failed) {
      if (c == '{') {
        json_string(r, 0);
        json_space(r);
        if (r->p >= r->end || *r->p != ':') {
          json_error(r, "expected ':'");
          return;
        }
        r->p++;
      }
      json_skip_value(r, depth + 1);
      json_space(r);
      if (r->p < r->end && *r->p == ',') {
        r->p++;
        continue;
      }
      if (r->p < r->end && *r->p == close) {
        r->p++;
        return;
      }
      json_error(r, "expected ',' or the end of the container");
    }
  } else {
    /* number, true, false, null */
    const char *start = r->p;
    while (r->p < r->end && (isalnum((unsigned char)*r->p) || *r->p == '-' || *r->p == '+' || *r->p == '.')) r->p++;
    if (r->p == start) json_error(r, "unexpected character");
  }
}

/* Reads a non-negative integer member value into *out; 0, or -1 with the reader's error set. */
static int json_count(json_reader *r, const char *key, long long *out) {
  json_space(r);
  const char *start = r->p;
  json_skip_value(r, 0);
  if (r->failed) return -1;
  char *number = strndup(start, (size_t)(r->p - start));
  char *end = NULL;
  errno = 0;
  long long value = strtoll(number, &end, 10);
  int bad = errno != 0 || end == number || *end != '\0' || value < 0;
  free(number);
  if (bad) {
    snprintf(r->error, r->error_size, "\"%s\" must be a non-negative integer", key);
    r->failed = 1;
    return -1;
  }
  *out = value;
  return 0;
}

/* Reads NAME.meta.json into w; 0, or -1 with *error set. */
static int read_metadata(const char *path, bench_workload *w, long long *inputs, char *error, size_t error_size) {
  size_t size;
  char *text = (char *)read_file(path, &size, NULL, error, error_size);
  if (text == NULL) return -1;
  char message[256] = "";
  json_reader r = {text, text, text + size, message, sizeof message, 0};
  enum { TYPE = 1, INPUTS = 2, FIXES = 4, INPUT_BYTES = 8, CANONICAL = 16, JSON_BYTES = 32, ALL = 63 };
  int seen = 0;
  json_space(&r);
  if (r.p >= r.end || *r.p != '{') json_error(&r, "expected an object");
  r.p++;
  json_space(&r);
  if (r.p < r.end && *r.p == '}') {
    r.p++;
  } else {
    while (!r.failed) {
      char *key = json_string(&r, 1);
      json_space(&r);
      if (r.p >= r.end || *r.p != ':') json_error(&r, "expected ':'");
      r.p++;
      if (strcmp(key, "type") == 0) {
        free(w->type);
        w->type = json_string(&r, 1);
        seen |= TYPE;
      } else if (strcmp(key, "inputs") == 0) {
        seen |= json_count(&r, key, inputs) == 0 ? INPUTS : 0;
      } else if (strcmp(key, "fixes_per_input") == 0) {
        seen |= json_count(&r, key, &w->fixes_per_input) == 0 ? FIXES : 0;
      } else if (strcmp(key, "input_bytes") == 0) {
        seen |= json_count(&r, key, &w->input_bytes) == 0 ? INPUT_BYTES : 0;
      } else if (strcmp(key, "canonical_bytes") == 0) {
        seen |= json_count(&r, key, &w->canonical_bytes) == 0 ? CANONICAL : 0;
      } else if (strcmp(key, "json_bytes") == 0) {
        seen |= json_count(&r, key, &w->json_bytes) == 0 ? JSON_BYTES : 0;
      } else {
        json_skip_value(&r, 0);
      }
      free(key);
      json_space(&r);
      if (r.p < r.end && *r.p == ',') {
        r.p++;
        continue;
      }
      if (r.p < r.end && *r.p == '}') {
        r.p++;
        break;
      }
      json_error(&r, "expected ',' or '}'");
    }
  }
  json_space(&r);
  if (!r.failed && r.p != r.end) json_error(&r, "trailing characters");
  free(text);
  if (r.failed) {
    snprintf(error, error_size, "%s: invalid metadata: %s", path, message);
    return -1;
  }
  if (seen != ALL) {
    snprintf(error, error_size,
             "%s: metadata lacks one of \"type\", \"inputs\", \"fixes_per_input\", \"input_bytes\", "
             "\"canonical_bytes\", \"json_bytes\"",
             path);
    return -1;
  }
  return 0;
}

static bench_workload **workloads;
static size_t workload_count, workload_capacity;

/* A workload name is a file name stem: letters, digits, '.', '_' and '-', not starting with '.'. */
static int valid_name(const char *name) {
  if (name[0] == '\0' || name[0] == '.' || strlen(name) > 200) return 0;
  for (const char *p = name; *p; p++) {
    if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-') return 0;
  }
  return 1;
}

static size_t sum_sizes(const size_t *sizes, size_t count, size_t *max) {
  size_t total = 0;
  *max = 0;
  for (size_t i = 0; i < count; i++) {
    total += sizes[i];
    if (sizes[i] > *max) *max = sizes[i];
  }
  return total;
}

/* The workload NAME, loaded and checked on first use; NULL with *error set when it cannot be. */
static const bench_workload *find_workload(const char *name, char *error, size_t error_size) {
  for (size_t i = 0; i < workload_count; i++) {
    if (strcmp(workloads[i]->name, name) == 0) return workloads[i];
  }
  if (!valid_name(name)) {
    snprintf(error, error_size, "bad workload name '%s'", name);
    return NULL;
  }
  bench_workload *w = calloc(1, sizeof *w);
  w->name = strdup(name);
  long long inputs = 0;
  char *path = NULL;
  size_t size = 0, max = 0;
  int missing = 0;
  unsigned char *data = NULL;
  if (asprintf(&path, "%s/%s.meta.json", workloads_dir, name) < 0) abort();
  if (read_metadata(path, w, &inputs, error, error_size) != 0) goto fail;
  free(path);
  if (asprintf(&path, "%s/%s.binpb.frames", workloads_dir, name) < 0) abort();
  data = read_file(path, &size, NULL, error, error_size);
  if (data == NULL) goto fail;
  if (split_frames(path, data, size, &w->inputs, &w->sizes, &w->count, error, error_size) != 0) goto fail;
  data = NULL; /* owned by w->inputs */
  if (w->count == 0) {
    snprintf(error, error_size, "%s holds no inputs", path);
    goto fail;
  }
  if ((long long)w->count != inputs) {
    snprintf(error, error_size, "%s holds %zu inputs, the metadata says %lld", path, w->count, inputs);
    goto fail;
  }
  if ((long long)sum_sizes(w->sizes, w->count, &w->max_size) != w->input_bytes) {
    snprintf(error, error_size, "%s holds %zu bytes of inputs, the metadata says %lld", path,
             sum_sizes(w->sizes, w->count, &max), w->input_bytes);
    goto fail;
  }
  free(path);
  if (asprintf(&path, "%s/%s.json.frames", workloads_dir, name) < 0) abort();
  data = read_file(path, &size, &missing, error, error_size);
  if (data == NULL && !missing) goto fail;
  if (data == NULL) {
    if (w->json_bytes != 0) {
      snprintf(error, error_size, "%s is missing but the metadata has json_bytes %lld", path, w->json_bytes);
      goto fail;
    }
  } else {
    size_t json_count = 0;
    const uint8_t **texts = NULL;
    if (split_frames(path, data, size, &texts, &w->json_sizes, &json_count, error, error_size) != 0) goto fail;
    w->json = (const char **)texts;
    data = NULL;
    if (json_count != w->count) {
      snprintf(error, error_size, "%s holds %zu texts for %zu inputs", path, json_count, w->count);
      goto fail;
    }
    if ((long long)sum_sizes(w->json_sizes, w->count, &w->max_json_size) != w->json_bytes) {
      snprintf(error, error_size, "%s holds %zu bytes of JSON, the metadata says %lld", path,
               sum_sizes(w->json_sizes, w->count, &max), w->json_bytes);
      goto fail;
    }
  }
  free(path);
  if (workload_count == workload_capacity) {
    workload_capacity = workload_capacity ? 2 * workload_capacity : 16;
    workloads = realloc(workloads, workload_capacity * sizeof *workloads);
  }
  workloads[workload_count++] = w;
  return w;
fail:
  /* A workload that fails to load is dropped whole; the coordinator stops the run on the error anyway. */
  free(path);
  free(data);
  free(w->name);
  free(w->type);
  free(w);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Per-workload state shared between operations (bench_shared_acquire). */

typedef struct {
  const bench_workload *workload;
  void *data;
  void (*destroy)(void *data);
  int users;
} shared_entry;

static shared_entry *shared;
static size_t shared_count;

void *bench_shared_acquire(const bench_workload *w, void *(*make)(const bench_workload *w, const void *context),
                           const void *context, void (*destroy)(void *data)) {
  for (size_t i = 0; i < shared_count; i++) {
    if (shared[i].workload == w) {
      shared[i].users++;
      return shared[i].data;
    }
  }
  shared = realloc(shared, (shared_count + 1) * sizeof *shared);
  if (shared == NULL) bench_fail("out of memory");
  shared[shared_count] = (shared_entry){w, make(w, context), destroy, 1};
  return shared[shared_count++].data;
}

void bench_shared_release(void *data) {
  if (data == NULL) return;
  for (size_t i = 0; i < shared_count; i++) {
    if (shared[i].data == data) {
      if (--shared[i].users == 0) {
        shared[i].destroy(data);
        shared[i] = shared[--shared_count];
      }
      return;
    }
  }
}

/* ---------------------------------------------------------------------------------------------------------------
 * Prepared operations. */

typedef struct {
  const bench_workload *workload;
  const bench_operation *operation;
  void *state;
  int ok;        /* prepare answered ok: true */
  size_t cursor; /* the next input; persists across run and memory commands */
} prepared_entry;

static prepared_entry *entries;
static size_t entry_count, entry_capacity;

static prepared_entry *find_entry(const bench_workload *w, const bench_operation *op) {
  for (size_t i = 0; i < entry_count; i++) {
    if (entries[i].workload == w && entries[i].operation == op) return &entries[i];
  }
  return NULL;
}

/* The loop PROTOCOL.md shows, shared by `run` (which reads the clock around it) and `memory`. The cursor lives in
 * a local during the loop and goes back to the entry after it; the results are summed in a local and reach the
 * volatile sink after the second clock read. `++cursor == count` is `cursor = (cursor + 1) mod count` without
 * the division. */
static uint64_t timed_loop(prepared_entry *e, uint64_t iterations) {
  uint64_t (*const run)(void *, const bench_workload *, size_t) = e->operation->run;
  void *const state = e->state;
  const bench_workload *const w = e->workload;
  const size_t count = w->count;
  size_t cursor = e->cursor;
  uint64_t sink = 0;
  const uint64_t start = now_ns();
  for (uint64_t i = 0; i < iterations; i++) {
    sink += run(state, w, cursor);
    if (++cursor == count) cursor = 0;
  }
  const uint64_t elapsed = now_ns() - start;
  e->cursor = cursor;
  bench_sink += sink;
  return elapsed;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Commands. */

static const bench_harness *harness;

static const bench_operation *find_operation(const char *name) {
  for (size_t i = 0; i < harness->operation_count; i++) {
    if (strcmp(harness->operations[i].name, name) == 0) return &harness->operations[i];
  }
  return NULL;
}

static void command_hello(void) {
  printf("{\"implementation\": ");
  put_json_string(harness->implementation);
  printf(", \"version\": ");
  put_json_string(harness->version);
  printf(", \"operations\": [");
  for (size_t i = 0; i < harness->operation_count; i++) {
    if (i) printf(", ");
    put_json_string(harness->operations[i].name);
  }
  printf("], \"warmup_ms\": %d}", harness->warmup_ms);
  answer_end();
}

/* Looks up WORKLOAD OPERATION (answering the error itself when it cannot). */
static int lookup(const char *workload, const char *operation, const bench_workload **w, const bench_operation **op) {
  *op = find_operation(operation);
  if (*op == NULL) {
    answer_error("unknown operation '%s'", operation);
    return -1;
  }
  char error[1024];
  *w = find_workload(workload, error, sizeof error);
  if (*w == NULL) {
    answer_error("%s", error);
    return -1;
  }
  return 0;
}

static void command_prepare(const char *workload, const char *operation) {
  const bench_workload *w;
  const bench_operation *op;
  if (lookup(workload, operation, &w, &op) != 0) return;
  prepared_entry *e = find_entry(w, op);
  if (e != NULL) {
    /* Prepared again: start over, as the first time. */
    if (e->state != NULL && op->release != NULL) op->release(e->state);
    e->state = NULL;
    e->ok = 0;
    e->cursor = 0;
  } else {
    if (entry_count == entry_capacity) {
      entry_capacity = entry_capacity ? 2 * entry_capacity : 32;
      entries = realloc(entries, entry_capacity * sizeof *entries);
    }
    e = &entries[entry_count++];
    *e = (prepared_entry){w, op, NULL, 0, 0};
  }
  bench_prepared result;
  memset(&result, 0, sizeof result);
  result.ok = 1;
  void *state = NULL;
  if (op->prepare(w, &state, &result) != 0) {
    if (state != NULL && op->release != NULL) op->release(state);
    answer_error("prepare %s %s: %s", w->name, op->name, result.error[0] ? result.error : "failed");
    return;
  }
  if (!result.ok) {
    if (state != NULL && op->release != NULL) op->release(state);
    printf("{\"ok\": false, \"reason\": ");
    put_json_string(result.reason);
    printf("}");
    answer_end();
    return;
  }
  e->state = state;
  e->ok = 1;
  printf("{\"ok\": true");
  if (result.has_checksum) printf(", \"checksum\": \"%" PRIu64 "\"", result.checksum);
  if (result.has_encoded_bytes) printf(", \"encoded_bytes\": %llu", result.encoded_bytes);
  if (result.has_json_bytes) printf(", \"json_bytes\": %llu", result.json_bytes);
  printf("}");
  answer_end();
}

/* Parses ITERATIONS: a decimal integer from 1 to 10^12. */
static int parse_iterations(const char *text, uint64_t *out) {
  if (*text == '\0' || strlen(text) > 13) return -1;
  uint64_t value = 0;
  for (const char *p = text; *p; p++) {
    if (*p < '0' || *p > '9') return -1;
    value = value * 10 + (uint64_t)(*p - '0');
  }
  if (value < 1 || value > 1000000000000ull) return -1;
  *out = value;
  return 0;
}

/* The prepared entry of a run or memory command (answering the error itself when there is none). */
static prepared_entry *prepared(const char *command, const char *workload, const char *operation,
                                const char *iterations, uint64_t *n) {
  const bench_workload *w;
  const bench_operation *op;
  if (parse_iterations(iterations, n) != 0) {
    answer_error("%s: ITERATIONS must be an integer from 1 to 10^12, got '%s'", command, iterations);
    return NULL;
  }
  if (lookup(workload, operation, &w, &op) != 0) return NULL;
  prepared_entry *e = find_entry(w, op);
  if (e == NULL || !e->ok) {
    answer_error("%s %s %s: %s", command, workload, operation,
                 e == NULL ? "not prepared" : "prepare did not succeed (not applicable or failed)");
    return NULL;
  }
  return e;
}

static void command_run(const char *workload, const char *operation, const char *iterations) {
  uint64_t n;
  prepared_entry *e = prepared("run", workload, operation, iterations, &n);
  if (e == NULL) return;
  uint64_t ns = timed_loop(e, n);
  printf("{\"ns\": %" PRIu64 "}", ns);
  answer_end();
}

/* Per-operation figures as JSON numbers: integers exactly, fractions with enough digits. */
/* release WORKLOAD: every operation prepared on it is released and its files are freed, so that what a harness
 * holds (and a collector paces itself on, and the peak resident set shows) is one workload's. A workload never
 * loaded is answered ok too: there is nothing to drop. */
static void command_release(const char *workload) {
  size_t index = 0;
  while (index < workload_count && strcmp(workloads[index]->name, workload) != 0) index++;
  if (index == workload_count) {
    printf("{\"ok\":true}");
    answer_end();
    return;
  }
  bench_workload *w = workloads[index];
  size_t kept = 0;
  for (size_t i = 0; i < entry_count; i++) {
    if (entries[i].workload == w) {
      if (entries[i].state != NULL && entries[i].operation->release != NULL) {
        entries[i].operation->release(entries[i].state);
      }
    } else {
      entries[kept++] = entries[i];
    }
  }
  entry_count = kept;
  /* The frames point into one buffer per file, which starts 4 bytes (the first length) before the first frame. */
  free((void *)(w->inputs[0] - 4));
  free(w->inputs);
  free(w->sizes);
  if (w->json != NULL) {
    free((void *)(w->json[0] - 4));
    free(w->json);
    free(w->json_sizes);
  }
  free(w->name);
  free(w->type);
  free(w);
  workloads[index] = workloads[--workload_count];
  printf("{\"ok\":true}");
  answer_end();
}

static void put_per_op(double total, uint64_t n) { printf("%.17g", total / (double)n); }

static void command_memory(const char *workload, const char *operation, const char *iterations) {
  uint64_t n;
  prepared_entry *e = prepared("memory", workload, operation, iterations, &n);
  if (e == NULL) return;
  int rss_reset = lw_peak_rss_reset();
  lw_allocation_counting_start();
  timed_loop(e, n);
  long allocations = lw_allocation_counting_stop();
  unsigned long long bytes = lw_allocated_bytes();
  long peak = rss_reset == 0 ? lw_peak_rss_kib() : -1;
  printf("{\"allocations\": ");
  put_per_op((double)allocations, n);
  printf(", \"allocated_bytes\": ");
  put_per_op((double)bytes, n);
  if (peak >= 0) {
    printf(", \"peak_rss_kib\": %ld}", peak);
  } else {
    printf(", \"peak_rss_kib\": null}");
  }
  answer_end();
}

static int usage(FILE *out, int status) {
  fprintf(out,
          "usage: %s --workloads DIR\n"
          "  Answers the commands of Benchmarks/peers/PROTOCOL.md on stdin (hello, prepare, run, memory, quit),\n"
          "  one JSON line each on stdout, for the workloads of DIR. Operations:",
          program);
  for (size_t i = 0; i < harness->operation_count; i++) fprintf(out, " %s", harness->operations[i].name);
  fprintf(out, "\n");
  return status;
}

int bench_main(int argc, char **argv, const bench_harness *h) {
  harness = h;
  program = h->program;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
    if (strcmp(argv[i], "--workloads") == 0 && i + 1 < argc) {
      workloads_dir = argv[++i];
    } else if (strncmp(argv[i], "--workloads=", 12) == 0) {
      workloads_dir = argv[i] + 12;
    } else {
      fprintf(stderr, "%s: unknown argument '%s'\n", program, argv[i]);
      return usage(stderr, 2);
    }
  }
  if (workloads_dir == NULL) {
    fprintf(stderr, "%s: --workloads DIR is required\n", program);
    return usage(stderr, 2);
  }

  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &capacity, stdin)) >= 0) {
    if (length > 0 && line[length - 1] == '\n') line[--length] = '\0';
    if ((size_t)length != strlen(line)) {
      answer_error("NUL byte in a command");
      continue;
    }
    /* Words separated by single spaces: an empty word (two spaces, a leading or trailing space) is an error. */
    char *words[5];
    int count = 0, bad = length == 0;
    for (char *p = line; !bad;) {
      char *space = strchr(p, ' ');
      if (space) *space = '\0';
      if (*p == '\0' || count == 5) bad = 1;
      else words[count++] = p;
      if (!space) break;
      p = space + 1;
    }
    if (bad) {
      answer_error("malformed command line (words separated by single spaces)");
      continue;
    }
    const char *c = words[0];
    if (strcmp(c, "quit") == 0 && count == 1) break;
    if (strcmp(c, "hello") == 0 && count == 1) {
      command_hello();
    } else if (strcmp(c, "prepare") == 0 && count == 3) {
      command_prepare(words[1], words[2]);
    } else if (strcmp(c, "run") == 0 && count == 4) {
      command_run(words[1], words[2], words[3]);
    } else if (strcmp(c, "memory") == 0 && count == 4) {
      command_memory(words[1], words[2], words[3]);
    } else if (strcmp(c, "release") == 0 && count == 2) {
      command_release(words[1]);
    } else {
      answer_error("unknown command or wrong number of words: '%s' with %d arguments", c, count - 1);
    }
  }
  free(line);
  for (size_t i = 0; i < entry_count; i++) {
    const bench_operation *op = entries[i].operation;
    if (entries[i].state != NULL && op->release != NULL) op->release(entries[i].state);
  }
  return 0;
}
