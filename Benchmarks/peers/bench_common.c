/* See bench_common.h. */
#define _GNU_SOURCE
#include "bench_common.h"
#include "CMallocCounter.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile uint64_t bench_sink;

static const char *program = "bench";

void bench_set_program(const char *name) { program = name; }

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

uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Allocation counting: ../Sources/CMallocCounter/MallocCounter.c, which build.sh links into both harnesses,
 * defines malloc and friends for the whole process. */

void bench_alloc_count_start(void) { lw_allocation_counting_start(); }

uint64_t bench_alloc_count_stop(void) { return (uint64_t)lw_allocation_counting_stop(); }

/* ---------------------------------------------------------------------------------------------------------------
 * Command line. */

static void usage(FILE *out) {
  fprintf(out,
          "usage: %s --workloads DIR [--samples K] [--min-sample-ms M] [--only WORKLOAD]... [--op OPERATION]...\n"
          "       [--warmup-ms W] [--alloc-ops N]\n"
          "  Benchmarks every operation on every NAME.binpb (+ NAME.json) of DIR; one JSON object per line on\n"
          "  stdout, progress on stderr. Defaults: K=15 samples of at least M=100 ms each after W=200 ms of\n"
          "  warm-up; allocations counted over N=1000 operations (0 skips the allocation run).\n",
          program);
}

static void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", program);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  usage(stderr);
  exit(2);
}

static double parse_number(const char *option, const char *text, double minimum) {
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !isfinite(value) || value < minimum) {
    usage_error("bad value for %s", option);
  }
  return value;
}

void bench_parse_args(int argc, char **argv, const char *const *operations, bench_options *out) {
  memset(out, 0, sizeof *out);
  out->samples = 15;
  out->min_sample_ms = 100;
  out->warmup_ms = 200;
  out->alloc_ops = 1000;
  out->only = calloc((size_t)argc, sizeof(char *));
  out->ops = calloc((size_t)argc, sizeof(char *));
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage(stdout);
      printf("  operations:");
      for (const char *const *op = operations; *op; op++) printf(" %s", *op);
      printf("\n");
      exit(0);
    }
    /* Accept both "--option value" and "--option=value". */
    const char *value = NULL;
    char name[64];
    const char *equals = strchr(arg, '=');
    if (strncmp(arg, "--", 2) == 0 && equals && (size_t)(equals - arg) < sizeof name) {
      memcpy(name, arg, (size_t)(equals - arg));
      name[equals - arg] = '\0';
      value = equals + 1;
    } else {
      snprintf(name, sizeof name, "%s", arg);
    }
    int takes_value = strcmp(name, "--workloads") == 0 || strcmp(name, "--samples") == 0 ||
                      strcmp(name, "--min-sample-ms") == 0 || strcmp(name, "--only") == 0 ||
                      strcmp(name, "--op") == 0 || strcmp(name, "--warmup-ms") == 0 ||
                      strcmp(name, "--alloc-ops") == 0;
    if (!takes_value) usage_error("unknown argument '%s'", arg);
    if (value == NULL) {
      if (i + 1 >= argc) usage_error("%s needs a value", name);
      value = argv[++i];
    }
    if (strcmp(name, "--workloads") == 0) {
      out->workloads_dir = value;
    } else if (strcmp(name, "--samples") == 0) {
      double k = parse_number(name, value, 1);
      if (k != floor(k) || k > 100000) usage_error("bad value for %s", name);
      out->samples = (int)k;
    } else if (strcmp(name, "--min-sample-ms") == 0) {
      out->min_sample_ms = parse_number(name, value, 0.001);
    } else if (strcmp(name, "--warmup-ms") == 0) {
      out->warmup_ms = parse_number(name, value, 0);
    } else if (strcmp(name, "--alloc-ops") == 0) {
      double n = parse_number(name, value, 0);
      if (n != floor(n) || n > 1e9) usage_error("bad value for %s", name);
      out->alloc_ops = (long)n;
    } else if (strcmp(name, "--only") == 0) {
      out->only[out->only_count++] = value;
    } else {
      int known = 0;
      for (const char *const *op = operations; *op; op++) known |= strcmp(*op, value) == 0;
      if (!known) usage_error("unknown operation '%s' (see --help)", value);
      out->ops[out->ops_count++] = value;
    }
  }
  if (out->workloads_dir == NULL) usage_error("%s is required", "--workloads");
}

int bench_operation_selected(const bench_options *options, const char *operation) {
  if (options->ops_count == 0) return 1;
  for (size_t i = 0; i < options->ops_count; i++) {
    if (strcmp(options->ops[i], operation) == 0) return 1;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Workloads. */

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) bench_fail("cannot open %s: %s", path, strerror(errno));
  size_t capacity = 1 << 16, length = 0;
  unsigned char *data = malloc(capacity);
  for (;;) {
    if (length == capacity) data = realloc(data, capacity *= 2);
    size_t got = fread(data + length, 1, capacity - length, file);
    length += got;
    if (got == 0) break;
  }
  if (ferror(file)) bench_fail("cannot read %s", path);
  fclose(file);
  *size = length;
  return data;
}

/* A small JSON reader, enough for the metadata object: its top-level "type" (string) and "fixes" (integer);
 * every other member is skipped whatever its value. */
typedef struct {
  const char *p, *start, *end, *path;
} json_reader;

static void json_error(const json_reader *r, const char *what) {
  bench_fail("%s: invalid metadata JSON (%s at offset %ld)", r->path, what, (long)(r->p - r->start));
}

static void json_space(json_reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

/* Reads a string; returns it (malloc'd, escapes decoded for ASCII, \u kept as '?') when keep is set. */
static char *json_string(json_reader *r, int keep) {
  json_space(r);
  if (r->p >= r->end || *r->p != '"') json_error(r, "expected a string");
  r->p++;
  size_t capacity = 32, length = 0;
  char *out = keep ? malloc(capacity) : NULL;
  for (;;) {
    if (r->p >= r->end) json_error(r, "unterminated string");
    char c = *r->p++;
    if (c == '"') break;
    if ((unsigned char)c < 0x20) json_error(r, "control character in string");
    if (c == '\\') {
      if (r->p >= r->end) json_error(r, "unterminated escape");
      char e = *r->p++;
      switch (e) {
        case '"': case '\\': case '/': c = e; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u':
          for (int i = 0; i < 4; i++) {
            if (r->p >= r->end || !isxdigit((unsigned char)*r->p)) json_error(r, "bad \\u escape");
            r->p++;
          }
          c = '?';
          break;
        default: json_error(r, "bad escape");
      }
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
  if (depth > 64) json_error(r, "nested too deeply");
  json_space(r);
  if (r->p >= r->end) json_error(r, "expected a value");
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
    for (;;) {
      if (c == '{') {
        json_string(r, 0);
        json_space(r);
        if (r->p >= r->end || *r->p != ':') json_error(r, "expected ':'");
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

static void read_metadata(const char *path, bench_workload *w) {
  size_t size;
  char *text = (char *)read_file(path, &size);
  text = realloc(text, size + 1);
  text[size] = '\0';
  if (strlen(text) != size) bench_fail("%s: NUL byte in metadata", path);
  json_reader r = {text, text, text + size, path};
  int have_type = 0, have_fixes = 0;
  json_space(&r);
  if (r.p >= r.end || *r.p != '{') json_error(&r, "expected an object");
  r.p++;
  json_space(&r);
  if (r.p < r.end && *r.p == '}') {
    r.p++;
  } else {
    for (;;) {
      char *key = json_string(&r, 1);
      json_space(&r);
      if (r.p >= r.end || *r.p != ':') json_error(&r, "expected ':'");
      r.p++;
      json_space(&r);
      if (strcmp(key, "type") == 0) {
        w->type = json_string(&r, 1);
        have_type = 1;
      } else if (strcmp(key, "fixes") == 0) {
        const char *start = r.p;
        json_skip_value(&r, 0);
        char *number = strndup(start, (size_t)(r.p - start));
        char *end = NULL;
        errno = 0;
        long long fixes = strtoll(number, &end, 10);
        if (errno != 0 || end == number || *end != '\0' || fixes < 0) {
          bench_fail("%s: \"fixes\" must be a non-negative integer, got %s", path, number);
        }
        free(number);
        w->fixes = fixes;
        have_fixes = 1;
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
  if (r.p != r.end) json_error(&r, "trailing characters");
  if (!have_type) bench_fail("%s: metadata has no \"type\"", path);
  if (!have_fixes) bench_fail("%s: metadata has no \"fixes\"", path);
  free(text);
}

static int compare_workloads(const void *a, const void *b) {
  return strcmp(((const bench_workload *)a)->name, ((const bench_workload *)b)->name);
}

size_t bench_load_workloads(const bench_options *options, bench_workload **out) {
  DIR *dir = opendir(options->workloads_dir);
  if (dir == NULL) bench_fail("cannot open workload directory %s: %s", options->workloads_dir, strerror(errno));
  size_t count = 0, capacity = 16;
  bench_workload *list = calloc(capacity, sizeof *list);
  struct dirent *entry;
  const char *suffix = ".binpb";
  size_t suffix_length = strlen(suffix);
  while ((entry = readdir(dir)) != NULL) {
    size_t length = strlen(entry->d_name);
    if (length <= suffix_length || strcmp(entry->d_name + length - suffix_length, suffix) != 0) continue;
    char *name = strndup(entry->d_name, length - suffix_length);
    int wanted = options->only_count == 0;
    for (size_t i = 0; i < options->only_count; i++) wanted |= strcmp(options->only[i], name) == 0;
    if (!wanted) {
      free(name);
      continue;
    }
    if (count == capacity) list = realloc(list, (capacity *= 2) * sizeof *list);
    bench_workload *w = &list[count++];
    memset(w, 0, sizeof *w);
    w->name = name;
  }
  closedir(dir);
  qsort(list, count, sizeof *list, compare_workloads);
  for (size_t i = 0; i < options->only_count; i++) {
    int found = 0;
    for (size_t j = 0; j < count; j++) found |= strcmp(options->only[i], list[j].name) == 0;
    if (!found) bench_fail("--only %s: no %s.binpb in %s", options->only[i], options->only[i], options->workloads_dir);
  }
  if (count == 0) bench_fail("no *.binpb workloads in %s", options->workloads_dir);
  for (size_t i = 0; i < count; i++) {
    bench_workload *w = &list[i];
    char *path = NULL;
    if (asprintf(&path, "%s/%s.binpb", options->workloads_dir, w->name) < 0) abort();
    w->data = read_file(path, &w->size);
    free(path);
    if (asprintf(&path, "%s/%s.json", options->workloads_dir, w->name) < 0) abort();
    read_metadata(path, w);
    free(path);
  }
  *out = list;
  return count;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Measurement. */

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear interpolation between the closest ranks (numpy's default, and bench_python.py's). */
static double percentile(const double *sorted, int count, double fraction) {
  double position = fraction * (count - 1);
  int low = (int)floor(position);
  int high = low + 1 < count ? low + 1 : low;
  double weight = position - low;
  return sorted[low] + (sorted[high] - sorted[low]) * weight;
}

void bench_measure(const bench_options *options, bench_run_fn run, void *ctx, int count_allocations,
                   bench_result *out) {
  /* Warm-up: at least warmup_ms, doubling the batch while a batch takes under 1 ms; it also estimates the cost
   * of one operation. */
  const uint64_t warmup_ns = (uint64_t)(options->warmup_ms * 1e6);
  uint64_t batch = 1;
  double per_op_ns = 0;
  uint64_t warmup_start = bench_now_ns();
  for (;;) {
    uint64_t start = bench_now_ns();
    run(ctx, batch);
    uint64_t end = bench_now_ns();
    per_op_ns = (double)(end - start) / (double)batch;
    if (end - warmup_start >= warmup_ns) break;
    if (end - start < 1000000) batch *= 2;
  }

  /* Samples: run batches of about min(1 ms, M/10) until at least M ms have passed; the clock is read once per
   * batch, so its cost is negligible. */
  const uint64_t sample_ns = (uint64_t)(options->min_sample_ms * 1e6);
  double target_batch_ns = options->min_sample_ms * 1e6 / 10;
  if (target_batch_ns > 1e6) target_batch_ns = 1e6;
  batch = per_op_ns > 0 ? (uint64_t)(target_batch_ns / per_op_ns) : 1000;
  if (batch < 1) batch = 1;
  double *samples = malloc(sizeof(double) * (size_t)options->samples);
  for (int i = 0; i < options->samples; i++) {
    uint64_t operations = 0, elapsed = 0;
    uint64_t start = bench_now_ns();
    do {
      run(ctx, batch);
      operations += batch;
      elapsed = bench_now_ns() - start;
    } while (elapsed < sample_ns);
    samples[i] = (double)elapsed / (double)operations;
  }
  qsort(samples, (size_t)options->samples, sizeof(double), compare_doubles);
  out->samples = options->samples;
  out->median = percentile(samples, options->samples, 0.5);
  out->p10 = percentile(samples, options->samples, 0.1);
  out->p90 = percentile(samples, options->samples, 0.9);
  free(samples);

  /* Allocation run: alloc_ops operations, but no more than fit in about one second at the median speed (at least
   * 10), so that the slow JSON operations (tens of ms each on a 1000-fix batch) do not take minutes. Counts are
   * the same for every operation once warm, so fewer operations give the same number. */
  out->allocations_per_op = -1;
  if (count_allocations && options->alloc_ops > 0) {
    uint64_t operations = (uint64_t)options->alloc_ops;
    uint64_t fit = out->median > 0 ? (uint64_t)(1e9 / out->median) : operations;
    if (fit < 10) fit = 10;
    if (operations > fit) operations = fit;
    bench_alloc_count_start();
    run(ctx, operations);
    uint64_t allocations = bench_alloc_count_stop();
    out->allocations_per_op = (double)allocations / (double)operations;
  }
}

static void print_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
    } else if (c < 0x20) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

void bench_print(const char *implementation, const char *version, const bench_workload *workload,
                 const char *operation, const bench_result *result) {
  printf("{\"implementation\": ");
  print_json_string(implementation);
  printf(", \"version\": ");
  print_json_string(version);
  printf(", \"workload\": ");
  print_json_string(workload->name);
  printf(", \"operation\": ");
  print_json_string(operation);
  printf(", \"bytes\": %zu, \"fixes\": %lld", workload->size, workload->fixes);
  printf(", \"ns_per_op\": {\"median\": %.2f, \"p10\": %.2f, \"p90\": %.2f}", result->median, result->p10,
         result->p90);
  printf(", \"samples\": %d, \"allocations_per_op\": ", result->samples);
  if (result->allocations_per_op < 0) {
    printf("null");
  } else {
    printf("%.3f", result->allocations_per_op);
  }
  printf("}\n");
  fflush(stdout);
}
