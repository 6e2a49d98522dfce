/*
 * LocationWire conformance testee for native upb (the C runtime of Google's protobuf, as shipped in the protobuf
 * 7.36.2 source distribution on PyPI; build.sh compiles it at -O3 -DNDEBUG).
 *
 * Usage: upb-testee DESCRIPTOR_SET
 *
 * DESCRIPTOR_SET is a serialized google.protobuf.FileDescriptorSet holding proto/'s locationwire.v1 files and the
 * testee protocol (build.sh makes it with protoc --include_imports). Every file goes into a upb_DefPool, which
 * builds the MiniTables that upb's wire decoder and encoder run on; no code is generated from the .proto files.
 * The protocol's own messages (TesteeRequest, TesteeResponse, ...) are read and written through upb's
 * reflection on the same pool, by field name.
 *
 * Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
 * is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out).
 *
 * Binary input and output only: upb's JSON codec (upb/json) is not part of the source distribution, so JSON
 * vectors are answered with `skipped`. Vectors are decoded and encoded as the Python binding does it
 * (python/message.c): decode with upb's default depth limit (100) and the pool's extension registry; encode
 * deterministically with the depth limit raised to 65535.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "upb/base/string_view.h"
#include "upb/mem/arena.h"
#include "upb/message/array.h"
#include "upb/message/message.h"
#include "upb/reflection/def.h"
#include "upb/reflection/message.h"
#include "upb/wire/decode.h"
#include "upb/wire/encode.h"

#include "schema.h"

#define IMPLEMENTATION "upb"
#define PROTOCOL_VERSION 1
#define PROTOCOL_PACKAGE "locationwire.conformance.v1."
#define SCHEMA_PACKAGE "locationwire.v1."

/* The protocol's Check and Feature values this testee knows. */
enum { CHECK_BINARY_OUTPUT = 1, CHECK_JSON_OUTPUT = 2, CHECK_VALIDATE = 3, CHECK_ROWS_TO_COMPACT = 5 };
enum { FEATURE_BINARY_INPUT = 1, FEATURE_BINARY_OUTPUT = 2 };

static upb_DefPool *pool;
static const upb_MessageDef *request_def, *response_def;

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "upb-testee: %s%s\n", what, detail);
  exit(2);
}

static const upb_MessageDef *protocol_message(const char *name) {
  char full[128];
  snprintf(full, sizeof full, "%s%s", PROTOCOL_PACKAGE, name);
  const upb_MessageDef *m = upb_DefPool_FindMessageByName(pool, full);
  if (m == NULL) fail("the descriptor set has no message ", full);
  return m;
}

static const upb_FieldDef *field(const upb_MessageDef *m, const char *name) {
  const upb_FieldDef *f = upb_MessageDef_FindFieldByName(m, name);
  if (f == NULL) {
    fprintf(stderr, "upb-testee: %s has no field %s\n", upb_MessageDef_FullName(m), name);
    exit(2);
  }
  return f;
}

/* Fills the pool from the descriptor set and finds the protocol's two top-level messages. */
static void load_schema(const char *path) {
  char error[512];
  pool = locwire_upb_load_pool(path, error, sizeof error);
  if (pool == NULL) fail(error, "");
  request_def = protocol_message("TesteeRequest");
  response_def = protocol_message("TesteeResponse");
}

static upb_StringView text(upb_Arena *arena, const char *format, const char *a, const char *b) {
  int n = snprintf(NULL, 0, format, a, b);
  char *s = upb_Arena_Malloc(arena, (size_t)n + 1);
  if (s == NULL) fail("out of memory", "");
  snprintf(s, (size_t)n + 1, format, a, b);
  return upb_StringView_FromDataAndSize(s, (size_t)n);
}

static void set_string(upb_Message *m, const upb_MessageDef *def, const char *name, upb_StringView value,
                       upb_Arena *arena) {
  upb_MessageValue v = {.str_val = value};
  if (!upb_Message_SetFieldByDef(m, field(def, name), v, arena)) fail("out of memory", "");
}

static upb_Message *mutable_message(upb_Message *m, const upb_MessageDef *def, const char *name,
                                    upb_Arena *arena) {
  upb_Message *sub = upb_Message_Mutable(m, field(def, name), arena).msg;
  if (sub == NULL) fail("out of memory", "");
  return sub;
}

static upb_StringView get_string(const upb_Message *m, const upb_MessageDef *def, const char *name) {
  return upb_Message_GetFieldByDef(m, field(def, name)).str_val;
}

static const char *check_name(int32_t check) {
  const upb_EnumDef *e = upb_DefPool_FindEnumByName(pool, PROTOCOL_PACKAGE "Check");
  const upb_EnumValueDef *v = e != NULL ? upb_EnumDef_FindValueByNumber(e, check) : NULL;
  return v != NULL ? upb_EnumValueDef_Name(v) : "?";
}

/* Fills `out` (a VectorResponse) for the VectorRequest `in`. */
static void run_vector(const upb_Message *in, upb_Message *out, int understood, upb_Arena *arena) {
  const upb_MessageDef *in_def = protocol_message("VectorRequest");
  const upb_MessageDef *out_def = protocol_message("VectorResponse");
  set_string(out, out_def, "vector_id", get_string(in, in_def, "vector_id"), arena);
  if (!understood) {
    set_string(out, out_def, "runtime_error",
               text(arena, "%s%s", "request not understood: this testee is older than the runner's protocol", ""),
               arena);
    return;
  }

  /* The checks first: an unknown one means a newer runner, answered loudly, never guessed at. */
  const upb_Array *checks = upb_Message_GetFieldByDef(in, field(in_def, "checks")).array_val;
  size_t n_checks = checks != NULL ? upb_Array_Size(checks) : 0;
  int want_binary = 0;
  const char *unsupported = NULL;
  for (size_t i = 0; i < n_checks; i++) {
    int32_t check = upb_Array_Get(checks, i).int32_val;
    if (check < CHECK_BINARY_OUTPUT || check > CHECK_ROWS_TO_COMPACT) {
      char number[32];
      snprintf(number, sizeof number, "%d", (int)check);
      set_string(out, out_def, "runtime_error", text(arena, "unknown check %s%s", number, ""), arena);
      return;
    }
    if (check == CHECK_BINARY_OUTPUT) {
      want_binary = 1;
    } else if (unsupported == NULL) {
      unsupported = check_name(check);
    }
  }
  if (unsupported != NULL) {
    const char *why = strcmp(unsupported, "CHECK_JSON_OUTPUT") == 0
                          ? " (upb's JSON codec, upb/json, is not in the protobuf source distribution)"
                          : " (upb is a codec: no validation or compact form)";
    set_string(out, out_def, "skipped", text(arena, "not supported: %s%s", unsupported, why), arena);
    return;
  }

  upb_StringView type_name = get_string(in, in_def, "message_type");
  const upb_MessageDef *type = NULL;
  if (type_name.size > strlen(SCHEMA_PACKAGE) && memcmp(type_name.data, SCHEMA_PACKAGE, strlen(SCHEMA_PACKAGE)) == 0) {
    type = upb_DefPool_FindMessageByNameWithSize(pool, type_name.data, type_name.size);
  }
  if (type == NULL) {
    char *name = upb_Arena_Malloc(arena, type_name.size + 1);
    if (name == NULL) fail("out of memory", "");
    memcpy(name, type_name.data, type_name.size);
    name[type_name.size] = 0;
    set_string(out, out_def, "skipped", text(arena, "unknown message type '%s'%s", name, ""), arena);
    return;
  }

  const upb_FieldDef *input = upb_Message_WhichOneofByDef(in, upb_MessageDef_FindOneofByName(in_def, "input"));
  if (input == NULL) {
    set_string(out, out_def, "runtime_error", text(arena, "%s%s", "vector has no input", ""), arena);
    return;
  }
  if (strcmp(upb_FieldDef_Name(input), "binary_input") != 0) {
    set_string(out, out_def, "skipped",
               text(arena, "%s%s", "JSON input is not supported: upb's JSON codec, upb/json, is not in the ",
                    "protobuf source distribution"),
               arena);
    return;
  }
  upb_StringView bytes = upb_Message_GetFieldByDef(in, input).str_val;

  const upb_MiniTable *table = upb_MessageDef_MiniTable(type);
  upb_Message *message = upb_Message_New(table, arena);
  if (message == NULL) fail("out of memory", "");
  upb_DecodeStatus status = upb_Decode(bytes.data, bytes.size, message, table, upb_DefPool_ExtensionRegistry(pool),
                                       upb_DecodeOptions_MaxDepth(0), arena);
  if (status != kUpb_DecodeStatus_Ok) {
    upb_Message *error = mutable_message(out, out_def, "parse_error", arena);
    set_string(error, protocol_message("ParseError"), "message",
               text(arena, "upb_Decode: %s%s", upb_DecodeStatus_String(status), ""), arena);
    return;
  }
  upb_Message *decoded = mutable_message(out, out_def, "decoded", arena); /* "decoded" even with no output */
  if (want_binary) {
    char *encoded = NULL;
    size_t size = 0;
    upb_EncodeStatus encode_status = upb_Encode(
        message, table, kUpb_EncodeOption_Deterministic | upb_EncodeOptions_MaxDepth(UINT16_MAX), arena, &encoded,
        &size);
    if (encode_status != kUpb_EncodeStatus_Ok) {
      upb_Message_ClearFieldByDef(out, field(out_def, "decoded"));
      set_string(out, out_def, "runtime_error", text(arena, "upb_Encode: %s%s", upb_EncodeStatus_String(encode_status), ""),
                 arena);
      return;
    }
    set_string(decoded, protocol_message("Decoded"), "binary_output", upb_StringView_FromDataAndSize(encoded, size),
               arena);
  }
}

/* The TesteeResponse to one serialized TesteeRequest. */
static upb_Message *answer(const char *bytes, size_t size, upb_Arena *arena) {
  upb_Message *response = upb_Message_New(upb_MessageDef_MiniTable(response_def), arena);
  upb_Message *request = upb_Message_New(upb_MessageDef_MiniTable(request_def), arena);
  if (response == NULL || request == NULL) fail("out of memory", "");
  const upb_MessageDef *vector_response = protocol_message("VectorResponse");

  upb_DecodeStatus status = upb_Decode(bytes, size, request, upb_MessageDef_MiniTable(request_def), NULL, 0, arena);
  if (status != kUpb_DecodeStatus_Ok) {
    upb_Message *vector = mutable_message(response, response_def, "vector", arena);
    set_string(vector, vector_response, "runtime_error",
               text(arena, "cannot parse TesteeRequest: %s%s", upb_DecodeStatus_String(status), ""), arena);
    return response;
  }

  /* Fields unknown to this testee's schema, at any depth, mean a newer runner: the request re-encodes shorter
   * without its unknown fields. */
  char *all = NULL, *known = NULL;
  size_t all_size = 0, known_size = 0;
  if (upb_Encode(request, upb_MessageDef_MiniTable(request_def), 0, arena, &all, &all_size) != kUpb_EncodeStatus_Ok ||
      upb_Encode(request, upb_MessageDef_MiniTable(request_def), kUpb_EncodeOption_SkipUnknown, arena, &known,
                 &known_size) != kUpb_EncodeStatus_Ok) {
    fail("cannot re-encode a TesteeRequest", "");
  }
  int understood = all_size == known_size;

  const upb_FieldDef *kind = upb_Message_WhichOneofByDef(request, upb_MessageDef_FindOneofByName(request_def, "kind"));
  const char *name = kind != NULL ? upb_FieldDef_Name(kind) : "";
  const upb_FieldDef *reply_field = kind != NULL ? upb_MessageDef_FindFieldByName(response_def, name) : NULL;
  if (kind == NULL || reply_field == NULL) {
    upb_Message *vector = mutable_message(response, response_def, "vector", arena);
    set_string(vector, vector_response, "runtime_error",
               text(arena, "%s%s", "request not understood: this testee is older than the runner's protocol", ""),
               arena);
    return response;
  }
  const upb_Message *body = upb_Message_GetFieldByDef(request, kind).msg_val;
  const upb_MessageDef *body_def = upb_FieldDef_MessageSubDef(kind);

  if (strcmp(name, "hello") == 0) {
    if (!understood) fail("hello has unknown fields: this testee is older than the runner's protocol", "");
    const upb_MessageDef *hello_def = protocol_message("HelloResponse");
    upb_Message *hello = mutable_message(response, response_def, "hello", arena);
    upb_MessageValue v = {.uint32_val = PROTOCOL_VERSION};
    if (!upb_Message_SetFieldByDef(hello, field(hello_def, "protocol_version"), v, arena)) fail("out of memory", "");
    set_string(hello, hello_def, "implementation", upb_StringView_FromString(IMPLEMENTATION), arena);
    set_string(hello, hello_def, "version", upb_StringView_FromString(UPB_SDIST_VERSION), arena);
    upb_Array *features = upb_Message_Mutable(hello, field(hello_def, "features"), arena).array;
    int32_t declared[] = {FEATURE_BINARY_INPUT, FEATURE_BINARY_OUTPUT};
    for (size_t i = 0; i < sizeof declared / sizeof declared[0]; i++) {
      upb_MessageValue feature = {.int32_val = declared[i]};
      if (features == NULL || !upb_Array_Append(features, feature, arena)) fail("out of memory", "");
    }
    upb_StringView runner = get_string(body, body_def, "runner");
    fprintf(stderr, "upb %s: hello from runner \"%.*s\"\n", UPB_SDIST_VERSION, (int)runner.size, runner.data);
    return response;
  }

  upb_Message *reply = mutable_message(response, response_def, name, arena);
  const upb_MessageDef *reply_def = upb_FieldDef_MessageSubDef(reply_field);
  if (strcmp(name, "vector") == 0) {
    run_vector(body, reply, understood, arena);
    return response;
  }
  /* session, ledger, recording, fences, planning, arming: a codec has no engine for them (none is declared). */
  set_string(reply, reply_def, "vector_id", get_string(body, body_def, "vector_id"), arena);
  if (understood) {
    set_string(reply, reply_def, "skipped", text(arena, "%s requests are not supported: a codec-only testee%s", name, ""),
               arena);
  } else {
    set_string(reply, reply_def, "runtime_error",
               text(arena, "%s%s", "request not understood: this testee is older than the runner's protocol", ""),
               arena);
  }
  return response;
}

/* Reads exactly n bytes; returns how many were read (fewer only at end of input). */
static size_t read_fully(void *buffer, size_t n) {
  size_t done = 0;
  while (done < n) {
    size_t got = fread((char *)buffer + done, 1, n - done, stdin);
    if (got == 0) break;
    done += got;
  }
  return done;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DESCRIPTOR_SET\n", argv[0]);
    return 2;
  }
  load_schema(argv[1]);
  for (;;) {
    uint8_t length[4];
    size_t got = read_fully(length, 4);
    if (got == 0) return 0; /* end of input where a length is expected: the session is over */
    if (got != 4) fail("input ends inside a length prefix", "");
    uint32_t n = (uint32_t)length[0] | (uint32_t)length[1] << 8 | (uint32_t)length[2] << 16 |
                 (uint32_t)length[3] << 24;
    upb_Arena *arena = upb_Arena_New();
    if (arena == NULL) fail("out of memory", "");
    char *bytes = upb_Arena_Malloc(arena, n > 0 ? n : 1);
    if (bytes == NULL) fail("out of memory", "");
    if (read_fully(bytes, n) != n) fail("input ends inside a request", "");

    upb_Message *response = answer(bytes, n, arena);
    char *out = NULL;
    size_t size = 0;
    if (upb_Encode(response, upb_MessageDef_MiniTable(response_def), 0, arena, &out, &size) != kUpb_EncodeStatus_Ok) {
      fail("cannot encode a TesteeResponse", "");
    }
    uint8_t header[4] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16), (uint8_t)(size >> 24)};
    if (fwrite(header, 1, 4, stdout) != 4 || fwrite(out, 1, size, stdout) != size || fflush(stdout) != 0) {
      fail("cannot write to stdout", "");
    }
    upb_Arena_Free(arena);
  }
}
