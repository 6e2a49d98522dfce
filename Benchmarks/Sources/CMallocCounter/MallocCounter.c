// Allocation counting by interposition, shared by the Swift driver (a SwiftPM C target) and the C and C++ peer
// harnesses (peers/build.sh compiles this file into them): the executable defines the allocator entry points, so
// the dynamic linker binds every caller in the process (libc, the Swift runtime, Foundation, libstdc++'s
// operator new, libprotobuf, libprotobuf-c) to these. They count while counting is on and forward to glibc's own
// implementations. `free` is not counted. Linux/glibc only, which is where the benchmarks run.
#include "CMallocCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int counting = 0;
static volatile long allocations = 0;
/// Bytes requested (not the allocator's rounded sizes; realloc counts its new size).
static volatile unsigned long long allocated_bytes = 0;

void lw_allocation_counting_start(void) {
    allocations = 0;
    allocated_bytes = 0;
    counting = 1;
}

long lw_allocation_counting_stop(void) {
    counting = 0;
    return allocations;
}

unsigned long long lw_allocated_bytes(void) { return allocated_bytes; }

#define COUNT(bytes)                                                                                              \
    do {                                                                                                          \
        if (counting) {                                                                                           \
            allocations++;                                                                                        \
            allocated_bytes += (bytes);                                                                           \
        }                                                                                                         \
    } while (0)

// The peak resident set: Linux resets VmHWM to the current RSS when "5" is written to /proc/self/clear_refs
// (since 4.0), and reports it in /proc/self/status. Plain syscalls, so nothing here allocates.
int lw_peak_rss_reset(void) {
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) return -1;
    ssize_t written = write(fd, "5", 1);
    close(fd);
    return written == 1 ? 0 : -1;
}

long lw_peak_rss_kib(void) {
    char buffer[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0) return -1;
    ssize_t length = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (length <= 0) return -1;
    buffer[length] = 0;
    const char *line = strstr(buffer, "VmHWM:");
    return line ? strtol(line + 6, NULL, 10) : -1;
}

void *malloc(size_t size) {
    COUNT(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    COUNT(count * size);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    COUNT(size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

static int is_power_of_two(size_t alignment) {
    return alignment != 0 && (alignment & (alignment - 1)) == 0;
}

void *memalign(size_t alignment, size_t size) {
    COUNT(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (!is_power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    COUNT(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!is_power_of_two(alignment) || alignment % sizeof(void *) != 0) return EINVAL;
    COUNT(size);
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}
