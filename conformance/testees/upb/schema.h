/* Shared by the upb testee and Benchmarks/peers/bench_upb.c: a upb_DefPool from a serialized FileDescriptorSet. */
#ifndef LOCATIONWIRE_UPB_SCHEMA_H
#define LOCATIONWIRE_UPB_SCHEMA_H

#include <stddef.h>

#include "upb/reflection/def.h"

/* Reads the FileDescriptorSet at `path` and adds every file to a new pool, in the set's order (protoc
 * --include_imports writes imports first), so the pool builds the MiniTables of every message. Returns NULL, with
 * the reason in `error`, when the file cannot be read or parsed or a file does not build. */
upb_DefPool *locwire_upb_load_pool(const char *path, char *error, size_t error_size);

#endif
