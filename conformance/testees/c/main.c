/*
 * LocationWire conformance testee for protobuf-c.
 *
 * Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
 * is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out). The
 * protocol messages themselves are handled with protobuf-c too.
 *
 * protobuf-c has no registry of message types by name, so build.sh generates two files next to the generated
 * code: v1_headers.inc (an #include per locationwire/v1 header) and v1_descriptors.inc (the address of every
 * message descriptor declared in them). The table below is built from those.
 *
 * Binary only: JSON input and JSON output are answered with `skipped`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

#include "locationwire/conformance/v1/testee.pb-c.h"
#include "v1_headers.inc"

#define IMPLEMENTATION "c-protobuf-c"
#define PROTOCOL_VERSION 1

static const ProtobufCMessageDescriptor *const message_types[] = {
#include "v1_descriptors.inc"
};

static const ProtobufCMessageDescriptor *find_message_type(const char *name) {
  for (size_t i = 0; i < sizeof message_types / sizeof message_types[0]; i++) {
    if (strcmp(message_types[i]->name, name) == 0) return message_types[i];
  }
  return NULL;
}

/* True when s is well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). protobuf-c does
 * not check proto3 strings, so the testee checks the protocol's own strings: echoing an invalid vector_id would
 * make the whole response unparseable for the runner. */
static int valid_utf8(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p++;
    int extra;
    unsigned min;
    if (c < 0x80) continue;
    if (c >= 0xC2 && c <= 0xDF) { extra = 1; min = 0x80; c &= 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { extra = 2; min = 0x800; c &= 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { extra = 3; min = 0x10000; c &= 0x07; }
    else return 0;
    for (int i = 0; i < extra; i++, p++) {
      if ((*p & 0xC0) != 0x80) return 0;
      c = c << 6 | (*p & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  }
  return 1;
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

static void write_response(const Locationwire__Conformance__V1__TesteeResponse *response) {
  size_t n = protobuf_c_message_get_packed_size(&response->base);
  uint8_t *bytes = malloc(n + 4);
  if (bytes == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  bytes[0] = (uint8_t)n;
  bytes[1] = (uint8_t)(n >> 8);
  bytes[2] = (uint8_t)(n >> 16);
  bytes[3] = (uint8_t)(n >> 24);
  protobuf_c_message_pack(&response->base, bytes + 4);
  if (fwrite(bytes, 1, n + 4, stdout) != n + 4 || fflush(stdout) != 0) {
    fprintf(stderr, "cannot write to stdout\n");
    exit(2);
  }
  free(bytes);
}

/* The answer to one vector. Strings point into `text` or into the request, which outlive the write. */
typedef struct {
  Locationwire__Conformance__V1__VectorResponse vector;
  Locationwire__Conformance__V1__Decoded decoded;
  Locationwire__Conformance__V1__ParseError parse_error;
  char text[1024];
} VectorAnswer;

static void answer_text(VectorAnswer *answer, Locationwire__Conformance__V1__VectorResponse__ResultCase kind,
                        const char *prefix, const char *detail) {
  snprintf(answer->text, sizeof answer->text, "%s%s", prefix, detail);
  answer->vector.result_case = kind;
  if (kind == LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__RESULT_SKIPPED) {
    answer->vector.skipped = answer->text;
  } else {
    answer->vector.runtime_error = answer->text;
  }
}

#define SKIPPED LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__RESULT_SKIPPED
#define RUNTIME_ERROR LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__RESULT_RUNTIME_ERROR

/* Fills `answer`; returns a packed output buffer the caller frees after writing (or NULL). */
static uint8_t *handle_vector(const Locationwire__Conformance__V1__VectorRequest *request, int has_unknown_fields,
                              VectorAnswer *answer) {
  answer->vector.vector_id = request->vector_id;
  if (has_unknown_fields) {
    answer_text(answer, RUNTIME_ERROR, "request has unknown fields: this testee is older than the runner's protocol",
                "");
    return NULL;
  }

  /* Look at the checks first: an unknown one means the runner speaks a newer protocol. */
  int want_binary = 0;
  for (size_t i = 0; i < request->n_checks; i++) {
    char number[32];
    switch ((int)request->checks[i]) {
      case LOCATIONWIRE__CONFORMANCE__V1__CHECK__CHECK_BINARY_OUTPUT:
        want_binary = 1;
        break;
      case LOCATIONWIRE__CONFORMANCE__V1__CHECK__CHECK_JSON_OUTPUT:
        answer_text(answer, SKIPPED, "JSON output is not supported by protobuf-c", "");
        return NULL;
      case LOCATIONWIRE__CONFORMANCE__V1__CHECK__CHECK_VALIDATE:
      case LOCATIONWIRE__CONFORMANCE__V1__CHECK__CHECK_COMPACT_TO_ROWS:
      case LOCATIONWIRE__CONFORMANCE__V1__CHECK__CHECK_ROWS_TO_COMPACT:
        answer_text(answer, SKIPPED, "check is not supported: ",
                    protobuf_c_enum_descriptor_get_value(&locationwire__conformance__v1__check__descriptor,
                                                         (int)request->checks[i])->name);
        return NULL;
      default:
        snprintf(number, sizeof number, "%d", (int)request->checks[i]);
        answer_text(answer, RUNTIME_ERROR, "unknown check ", number);
        return NULL;
    }
  }

  const ProtobufCMessageDescriptor *type = find_message_type(request->message_type);
  if (type == NULL) {
    answer_text(answer, SKIPPED, "unknown message type ", request->message_type);
    return NULL;
  }
  if (request->input_case == LOCATIONWIRE__CONFORMANCE__V1__VECTOR_REQUEST__INPUT_JSON_INPUT) {
    answer_text(answer, SKIPPED, "JSON input is not supported by protobuf-c", "");
    return NULL;
  }
  if (request->input_case != LOCATIONWIRE__CONFORMANCE__V1__VECTOR_REQUEST__INPUT_BINARY_INPUT) {
    answer_text(answer, RUNTIME_ERROR, "vector has no input", "");
    return NULL;
  }

  ProtobufCMessage *message =
      protobuf_c_message_unpack(type, NULL, request->binary_input.len, request->binary_input.data);
  if (message == NULL) {
    /* protobuf-c does not say why. */
    answer->parse_error.message = "protobuf_c_message_unpack failed";
    answer->vector.result_case = LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__RESULT_PARSE_ERROR;
    answer->vector.parse_error = &answer->parse_error;
    return NULL;
  }

  uint8_t *output = NULL;
  if (want_binary) {
    size_t n = protobuf_c_message_get_packed_size(message);
    output = malloc(n > 0 ? n : 1);
    if (output == NULL) {
      protobuf_c_message_free_unpacked(message, NULL);
      answer_text(answer, RUNTIME_ERROR, "out of memory", "");
      return NULL;
    }
    size_t packed = protobuf_c_message_pack(message, output);
    if (packed != n) {
      free(output);
      protobuf_c_message_free_unpacked(message, NULL);
      answer_text(answer, RUNTIME_ERROR, "protobuf_c_message_pack wrote a different size than it computed", "");
      return NULL;
    }
    answer->decoded.binary_output.data = output;
    answer->decoded.binary_output.len = n;
  }
  protobuf_c_message_free_unpacked(message, NULL);
  answer->vector.result_case = LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__RESULT_DECODED;
  answer->vector.decoded = &answer->decoded;
  return output;
}

int main(void) {
  for (;;) {
    uint8_t length[4];
    size_t got = read_fully(length, 4);
    if (got == 0) return 0; /* end of the session */
    if (got != 4) {
      fprintf(stderr, "input ends inside a length prefix\n");
      return 2;
    }
    uint32_t n = (uint32_t)length[0] | (uint32_t)length[1] << 8 | (uint32_t)length[2] << 16 |
                 (uint32_t)length[3] << 24;
    uint8_t *bytes = malloc(n > 0 ? n : 1);
    if (bytes == NULL) {
      fprintf(stderr, "out of memory for a request of %u bytes\n", n);
      return 2;
    }
    if (read_fully(bytes, n) != n) {
      fprintf(stderr, "input ends inside a request of %u bytes\n", n);
      return 2;
    }

    Locationwire__Conformance__V1__TesteeResponse response = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__INIT;
    Locationwire__Conformance__V1__HelloResponse hello = LOCATIONWIRE__CONFORMANCE__V1__HELLO_RESPONSE__INIT;
    Locationwire__Conformance__V1__SessionResponse session = LOCATIONWIRE__CONFORMANCE__V1__SESSION_RESPONSE__INIT;
    Locationwire__Conformance__V1__LedgerResponse ledger = LOCATIONWIRE__CONFORMANCE__V1__LEDGER_RESPONSE__INIT;
    Locationwire__Conformance__V1__Feature features[] = {
        LOCATIONWIRE__CONFORMANCE__V1__FEATURE__FEATURE_BINARY_INPUT,
        LOCATIONWIRE__CONFORMANCE__V1__FEATURE__FEATURE_BINARY_OUTPUT,
    };
    VectorAnswer answer = {
        .vector = LOCATIONWIRE__CONFORMANCE__V1__VECTOR_RESPONSE__INIT,
        .decoded = LOCATIONWIRE__CONFORMANCE__V1__DECODED__INIT,
        .parse_error = LOCATIONWIRE__CONFORMANCE__V1__PARSE_ERROR__INIT,
    };
    uint8_t *output = NULL;

    Locationwire__Conformance__V1__TesteeRequest *request =
        locationwire__conformance__v1__testee_request__unpack(NULL, n, bytes);
    if (request == NULL) {
      answer_text(&answer, RUNTIME_ERROR, "cannot parse TesteeRequest", "");
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_VECTOR;
      response.vector = &answer.vector;
    } else if ((request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_HELLO &&
                !valid_utf8(request->hello->runner)) ||
               (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_SESSION &&
                !valid_utf8(request->session->vector_id)) ||
               (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_LEDGER &&
                !valid_utf8(request->ledger->vector_id)) ||
               (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_VECTOR &&
                (!valid_utf8(request->vector->vector_id) || !valid_utf8(request->vector->message_type) ||
                 (request->vector->input_case == LOCATIONWIRE__CONFORMANCE__V1__VECTOR_REQUEST__INPUT_JSON_INPUT &&
                  !valid_utf8(request->vector->json_input))))) {
      answer_text(&answer, RUNTIME_ERROR, "cannot parse TesteeRequest: a string field is not valid UTF-8", "");
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_VECTOR;
      response.vector = &answer.vector;
    } else if (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_HELLO) {
      if (request->base.n_unknown_fields != 0 || request->hello->base.n_unknown_fields != 0) {
        fprintf(stderr, "hello has unknown fields: this testee is older than the runner's protocol\n");
        return 2;
      }
      hello.protocol_version = PROTOCOL_VERSION;
      hello.implementation = IMPLEMENTATION;
      hello.version = (char *)protobuf_c_version();
      hello.n_features = sizeof features / sizeof features[0];
      hello.features = features;
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_HELLO;
      response.hello = &hello;
      fprintf(stderr, "%s %s: hello from runner \"%s\", protocol %u\n", IMPLEMENTATION, protobuf_c_version(),
              request->hello->runner, request->hello->protocol_version);
    } else if (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_VECTOR) {
      int unknown = request->base.n_unknown_fields != 0 || request->vector->base.n_unknown_fields != 0;
      output = handle_vector(request->vector, unknown, &answer);
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_VECTOR;
      response.vector = &answer.vector;
    } else if (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_SESSION) {
      /* A codec only: no device engine (FEATURE_SESSION is not declared). */
      session.vector_id = request->session->vector_id;
      session.failure_case = LOCATIONWIRE__CONFORMANCE__V1__SESSION_RESPONSE__FAILURE_SKIPPED;
      session.skipped = "sessions are not supported: a codec-only testee";
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_SESSION;
      response.session = &session;
    } else if (request->kind_case == LOCATIONWIRE__CONFORMANCE__V1__TESTEE_REQUEST__KIND_LEDGER) {
      /* No server engine either (FEATURE_LEDGER is not declared). */
      ledger.vector_id = request->ledger->vector_id;
      ledger.failure_case = LOCATIONWIRE__CONFORMANCE__V1__LEDGER_RESPONSE__FAILURE_SKIPPED;
      ledger.skipped = "ledgers are not supported: a codec-only testee";
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_LEDGER;
      response.ledger = &ledger;
    } else {
      answer_text(&answer, RUNTIME_ERROR, "request is neither hello nor vector", "");
      response.kind_case = LOCATIONWIRE__CONFORMANCE__V1__TESTEE_RESPONSE__KIND_VECTOR;
      response.vector = &answer.vector;
    }

    write_response(&response);
    free(output);
    if (request != NULL) locationwire__conformance__v1__testee_request__free_unpacked(request, NULL);
    free(bytes);
  }
}
