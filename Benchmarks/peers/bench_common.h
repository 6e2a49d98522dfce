/* Shared by bench_cpp and bench_c: command line, workload loading, the timing loop, statistics, allocation
 * counting (malloc interposition) and the JSON-lines output. Plain C so both harnesses link the same object. */
#ifndef LOCATIONWIRE_BENCH_COMMON_H
#define LOCATIONWIRE_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One workload: NAME.binpb and NAME.json of the workload directory. */
typedef struct {
  char *name;          /* NAME */
  char *type;          /* full message name, e.g. "locationwire.v1.LocationBatch" */
  long long fixes;     /* "fixes" of the metadata */
  unsigned char *data; /* contents of NAME.binpb */
  size_t size;
} bench_workload;

typedef struct {
  const char *workloads_dir;
  int samples;          /* --samples K, default 15 */
  double min_sample_ms; /* --min-sample-ms M, default 100 */
  double warmup_ms;     /* --warmup-ms, default 200 */
  long alloc_ops;       /* --alloc-ops N, default 1000 (0: skip the allocation run) */
  const char **only;    /* --only WORKLOAD (repeatable) */
  size_t only_count;
  const char **ops;     /* --op OPERATION (repeatable; default all) */
  size_t ops_count;
} bench_options;

typedef struct {
  double median, p10, p90; /* ns per operation over the samples */
  int samples;
  double allocations_per_op; /* negative: not measured */
} bench_result;

/* Runs the operation `iterations` times in a tight loop. */
typedef void (*bench_run_fn)(void *ctx, uint64_t iterations);

/* Every operation result feeds a byte into this, so the optimiser cannot drop the work. */
extern volatile uint64_t bench_sink;

/* Name of the program for messages ("bench_cpp", "bench_c"). */
void bench_set_program(const char *program);

/* Prints "PROGRAM: message" on stderr and exits with status 1. */
void bench_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Prints "PROGRAM: message" on stderr. */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses the command line (exits with status 2 and usage on error, 0 on --help). `operations` is the
 * NULL-terminated list of this harness's operations, used to check --op. */
void bench_parse_args(int argc, char **argv, const char *const *operations, bench_options *out);

/* Loads every NAME.binpb (with its NAME.json) of the directory, sorted by name, keeping only the --only ones. */
size_t bench_load_workloads(const bench_options *options, bench_workload **out);

/* Whether --op selected this operation (all are selected without --op). */
int bench_operation_selected(const bench_options *options, const char *operation);

/* Warm-up, samples and (when count_allocations) the allocation run, as README.md describes. */
void bench_measure(const bench_options *options, bench_run_fn run, void *ctx, int count_allocations,
                   bench_result *out);

/* One JSON line on stdout (flushed). */
void bench_print(const char *implementation, const char *version, const bench_workload *workload,
                 const char *operation, const bench_result *result);

/* Allocation counting: calls to malloc, calloc, realloc and the aligned allocators made between start and stop. */
void bench_alloc_count_start(void);
uint64_t bench_alloc_count_stop(void);

/* The clock of every measurement: CLOCK_MONOTONIC in ns. */
uint64_t bench_now_ns(void);

#ifdef __cplusplus
}
#endif

#endif
