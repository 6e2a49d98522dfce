#include "schema.h"

#include <stdio.h>
#include <stdlib.h>

#include "google/protobuf/descriptor.upb.h"
#include "upb/base/status.h"
#include "upb/mem/arena.h"

upb_DefPool *locwire_upb_load_pool(const char *path, char *error, size_t error_size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    snprintf(error, error_size, "cannot open the descriptor set %s", path);
    return NULL;
  }
  size_t capacity = 1 << 16, size = 0;
  char *bytes = NULL;
  for (;;) {
    char *grown = realloc(bytes, capacity);
    if (grown == NULL) break;
    bytes = grown;
    size += fread(bytes + size, 1, capacity - size, file);
    if (size < capacity) break;
    capacity *= 2;
  }
  int failed = bytes == NULL || ferror(file);
  fclose(file);
  if (failed) {
    free(bytes);
    snprintf(error, error_size, "cannot read %s", path);
    return NULL;
  }

  upb_DefPool *pool = NULL;
  upb_Arena *arena = upb_Arena_New();
  google_protobuf_FileDescriptorSet *set =
      arena != NULL ? google_protobuf_FileDescriptorSet_parse(bytes, size, arena) : NULL;
  if (set == NULL) {
    snprintf(error, error_size, "%s is not a serialized FileDescriptorSet", path);
  } else {
    size_t count = 0;
    const google_protobuf_FileDescriptorProto *const *files = google_protobuf_FileDescriptorSet_file(set, &count);
    pool = upb_DefPool_New();
    for (size_t i = 0; pool != NULL && i < count; i++) {
      upb_Status status;
      upb_Status_Clear(&status);
      if (upb_DefPool_AddFile(pool, files[i], &status) == NULL) {
        snprintf(error, error_size, "upb_DefPool_AddFile: %s", upb_Status_ErrorMessage(&status));
        upb_DefPool_Free(pool);
        pool = NULL;
      }
    }
  }
  if (arena != NULL) upb_Arena_Free(arena);
  free(bytes);
  return pool;
}
