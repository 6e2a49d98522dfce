#ifndef C_MALLOC_COUNTER_H
#define C_MALLOC_COUNTER_H

/// Starts counting allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by this
/// process, from zero.
void lw_allocation_counting_start(void);

/// Stops counting and returns the number of allocations since the start.
long lw_allocation_counting_stop(void);

#endif
