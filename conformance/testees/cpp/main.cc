// LocationWire conformance testee for Google's C++ protobuf runtime (libprotobuf).
//
// Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
// is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out).
// Message types are looked up by full name in the generated descriptor pool, so every generated
// locationwire/v1 file linked into this binary is available without a hand-written table.
//
// Built by build.sh; see conformance/testees/README.md.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include "locationwire/conformance/v1/testee.pb.h"

namespace pb = google::protobuf;
namespace cv1 = locationwire::conformance::v1;

namespace {

constexpr char kImplementation[] = "cpp-libprotobuf";
constexpr char kMessagePackage[] = "locationwire.v1";
constexpr uint32_t kProtocolVersion = 1;

// libprotobuf reports why a parse failed only through its log (e.g. "String field '...' contains invalid UTF-8
// data"). The handler keeps the last message so parse_error can carry it, and still writes it to stderr.
std::string g_last_log;

void CaptureLog(pb::LogLevel level, const char* filename, int line, const std::string& message) {
  g_last_log = message;
  std::fprintf(stderr, "[libprotobuf %d %s:%d] %s\n", static_cast<int>(level), filename, line, message.c_str());
}

std::string VersionString() {
  const int v = GOOGLE_PROTOBUF_VERSION;  // e.g. 3021012
  return std::to_string(v / 1000000) + "." + std::to_string(v / 1000 % 1000) + "." + std::to_string(v % 1000);
}

// Reads exactly n bytes. Returns the number read (less than n only at end of input).
size_t ReadFully(void* buffer, size_t n) {
  size_t done = 0;
  while (done < n) {
    size_t got = std::fread(static_cast<char*>(buffer) + done, 1, n - done, stdin);
    if (got == 0) break;
    done += got;
  }
  return done;
}

void WriteResponse(const cv1::TesteeResponse& response) {
  std::string bytes;
  if (!response.SerializeToString(&bytes)) {
    std::fprintf(stderr, "cannot serialize TesteeResponse\n");
    std::exit(2);
  }
  const uint32_t n = static_cast<uint32_t>(bytes.size());
  const unsigned char length[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                                   static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
  if (std::fwrite(length, 1, 4, stdout) != 4 || std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
      std::fflush(stdout) != 0) {
    std::fprintf(stderr, "cannot write to stdout\n");
    std::exit(2);
  }
}

// True when the message or any message inside it carries fields this build does not know.
bool HasUnknownFields(const pb::Message& message) {
  std::unique_ptr<pb::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();
  return copy->ByteSizeLong() != message.ByteSizeLong();
}

// Deterministic binary encoding (map entries sorted by key; LocationWire has no maps, but the runner asks for
// canonical output).
std::string SerializeDeterministic(const pb::Message& message) {
  std::string out;
  {
    pb::io::StringOutputStream stream(&out);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    if (!message.SerializeToCodedStream(&coded)) throw std::runtime_error("SerializeToCodedStream failed");
  }
  return out;
}

void HandleVector(const cv1::VectorRequest& request, bool request_has_unknown_fields, cv1::VectorResponse* response) {
  response->set_vector_id(request.vector_id());
  if (request_has_unknown_fields) {
    response->set_runtime_error("request has unknown fields: this testee is older than the runner's protocol");
    return;
  }

  // Look at the checks first: an unknown one means the runner speaks a newer protocol.
  bool want_binary = false, want_json = false;
  for (int check : request.checks()) {
    switch (check) {
      case cv1::CHECK_BINARY_OUTPUT: want_binary = true; break;
      case cv1::CHECK_JSON_OUTPUT: want_json = true; break;
      case cv1::CHECK_VALIDATE:
      case cv1::CHECK_COMPACT_TO_ROWS:
      case cv1::CHECK_ROWS_TO_COMPACT:
        response->set_skipped("check " + cv1::Check_Name(static_cast<cv1::Check>(check)) + " is not supported");
        return;
      default:
        response->set_runtime_error("unknown check " + std::to_string(check));
        return;
    }
  }

  const pb::Descriptor* descriptor = pb::DescriptorPool::generated_pool()->FindMessageTypeByName(request.message_type());
  if (descriptor == nullptr || descriptor->file()->package() != kMessagePackage) {
    response->set_skipped("unknown message type \"" + request.message_type() + "\"");
    return;
  }
  std::unique_ptr<pb::Message> message(pb::MessageFactory::generated_factory()->GetPrototype(descriptor)->New());

  switch (request.input_case()) {
    case cv1::VectorRequest::kBinaryInput:
      g_last_log.clear();
      if (!message->ParseFromString(request.binary_input())) {
        response->mutable_parse_error()->set_message(g_last_log.empty() ? "ParseFromString failed" : g_last_log);
        return;
      }
      break;
    case cv1::VectorRequest::kJsonInput: {
      pb::util::Status status = pb::util::JsonStringToMessage(request.json_input(), message.get());
      if (!status.ok()) {
        response->mutable_parse_error()->set_message(std::string(status.message()));
        return;
      }
      break;
    }
    default:
      response->set_runtime_error("vector has no input");
      return;
  }

  cv1::Decoded* decoded = response->mutable_decoded();
  if (want_binary) {
    decoded->set_binary_output(SerializeDeterministic(*message));
  }
  if (want_json) {
    std::string json;
    pb::util::Status status = pb::util::MessageToJsonString(*message, &json);
    if (!status.ok()) {
      response->clear_decoded();
      response->set_runtime_error("MessageToJsonString failed: " + std::string(status.message()));
      return;
    }
    decoded->set_json_output(json);
  }
}

}  // namespace

int main() {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  pb::SetLogHandler(&CaptureLog);

  for (;;) {
    unsigned char length[4];
    const size_t got = ReadFully(length, 4);
    if (got == 0) return 0;  // end of the session
    if (got != 4) {
      std::fprintf(stderr, "input ends inside a length prefix\n");
      return 2;
    }
    const uint32_t n = uint32_t{length[0]} | uint32_t{length[1]} << 8 | uint32_t{length[2]} << 16 |
                       uint32_t{length[3]} << 24;
    std::string bytes(n, '\0');
    if (ReadFully(bytes.data(), n) != n) {
      std::fprintf(stderr, "input ends inside a request of %u bytes\n", n);
      return 2;
    }

    cv1::TesteeRequest request;
    cv1::TesteeResponse response;
    g_last_log.clear();
    try {
      if (!request.ParseFromString(bytes)) {
        response.mutable_vector()->set_runtime_error("cannot parse TesteeRequest: " + g_last_log);
      } else if (request.has_hello()) {
        if (HasUnknownFields(request)) {
          std::fprintf(stderr, "hello has unknown fields: this testee is older than the runner's protocol\n");
          return 2;
        }
        cv1::HelloResponse* hello = response.mutable_hello();
        hello->set_protocol_version(kProtocolVersion);
        hello->set_implementation(kImplementation);
        hello->set_version(VersionString());
        hello->add_features(cv1::FEATURE_BINARY_INPUT);
        hello->add_features(cv1::FEATURE_BINARY_OUTPUT);
        hello->add_features(cv1::FEATURE_JSON_INPUT);
        hello->add_features(cv1::FEATURE_JSON_OUTPUT);
        std::fprintf(stderr, "%s %s: hello from runner \"%s\", protocol %u\n", kImplementation,
                     VersionString().c_str(), request.hello().runner().c_str(), request.hello().protocol_version());
      } else if (request.has_vector()) {
        HandleVector(request.vector(), HasUnknownFields(request), response.mutable_vector());
      } else if (request.has_session()) {  // a codec only: no device engine (FEATURE_SESSION not declared)
        response.mutable_session()->set_vector_id(request.session().vector_id());
        response.mutable_session()->set_skipped("sessions are not supported: a codec-only testee");
      } else if (request.has_ledger()) {  // no server engine either (FEATURE_LEDGER not declared)
        response.mutable_ledger()->set_vector_id(request.ledger().vector_id());
        response.mutable_ledger()->set_skipped("ledgers are not supported: a codec-only testee");
      } else {
        response.mutable_vector()->set_runtime_error("request is neither hello nor vector");
      }
    } catch (const std::exception& e) {
      const std::string id = request.has_vector() ? request.vector().vector_id() : "";
      response.Clear();
      response.mutable_vector()->set_vector_id(id);
      response.mutable_vector()->set_runtime_error(std::string("exception: ") + e.what());
    }
    WriteResponse(response);
  }
}
