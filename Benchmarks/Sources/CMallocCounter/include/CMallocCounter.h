#ifndef C_MALLOC_COUNTER_H
#define C_MALLOC_COUNTER_H

/// Starts counting allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by this
/// process, from zero.
void lw_allocation_counting_start(void);

/// Stops counting and returns the number of allocations since the start.
long lw_allocation_counting_stop(void);

/// The bytes those allocations asked for (a realloc counts its new size), since the last start.
unsigned long long lw_allocated_bytes(void);

/// Resets the process's peak resident set size to its current one (Linux: /proc/self/clear_refs); 0 on success.
int lw_peak_rss_reset(void);

/// The process's peak resident set size since the last reset (VmHWM), in KiB; -1 when unreadable.
long lw_peak_rss_kib(void);

#endif
