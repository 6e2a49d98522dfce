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

static volatile int counting = 0;
static volatile long allocations = 0;

void lw_allocation_counting_start(void) {
    allocations = 0;
    counting = 1;
}

long lw_allocation_counting_stop(void) {
    counting = 0;
    return allocations;
}

void *malloc(size_t size) {
    if (counting) allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) allocations++;
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

static int is_power_of_two(size_t alignment) {
    return alignment != 0 && (alignment & (alignment - 1)) == 0;
}

void *memalign(size_t alignment, size_t size) {
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (!is_power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    if (counting) allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!is_power_of_two(alignment) || alignment % sizeof(void *) != 0) return EINVAL;
    if (counting) allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}
