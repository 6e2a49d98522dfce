// The C++ protobuf library (libprotobuf-dev) as a batch oracle for crosscheck.py.
//
// Usage: cpporacle DESCRIPTOR_SET < requests
// Loads the schema from a FileDescriptorSet (protoc --descriptor_set_out --include_imports), so no generated
// code is needed, then answers one request per input line:
//   json2bin TYPE HEX   JSON text (hex-encoded) -> JsonStringToMessage -> deterministic binary
//   bin2json TYPE HEX   binary -> ParseFromString -> MessageToJsonString (compact, default options)
//   bin2bin  TYPE HEX   binary -> ParseFromString -> deterministic binary
// with one output line each: "OK HEX" (the result, hex-encoded) or "ERR message".
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/json_util.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

using namespace google::protobuf;

static std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

static std::string ToHex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

static std::string Deterministic(const Message& m) {
  std::string out;
  {
    io::StringOutputStream sos(&out);
    io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&cos);
  }
  return out;
}

static std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cpporacle DESCRIPTOR_SET\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  FileDescriptorSet set;
  if (!set.ParseFromString(buf.str())) {
    std::cerr << "cannot read descriptor set\n";
    return 2;
  }
  DescriptorPool pool;
  for (const auto& file : set.file())
    if (pool.BuildFile(file) == nullptr) {
      std::cerr << "cannot build " << file.name() << "\n";
      return 2;
    }
  DynamicMessageFactory factory(&pool);

  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream fields(line);
    std::string mode, type, hex;
    fields >> mode >> type >> hex;
    const Descriptor* desc = pool.FindMessageTypeByName(type);
    if (desc == nullptr) {
      std::cout << "ERR unknown type " << type << std::endl;
      continue;
    }
    std::unique_ptr<Message> msg(factory.GetPrototype(desc)->New());
    std::string input = FromHex(hex);
    if (mode == "json2bin") {
      util::JsonParseOptions options;
      auto status = util::JsonStringToMessage(input, msg.get(), options);
      if (!status.ok())
        std::cout << "ERR " << OneLine(status.ToString()) << std::endl;
      else
        std::cout << "OK " << ToHex(Deterministic(*msg)) << std::endl;
    } else if (!msg->ParseFromString(input)) {
      std::cout << "ERR binary parse failed" << std::endl;
    } else if (mode == "bin2bin") {
      std::cout << "OK " << ToHex(Deterministic(*msg)) << std::endl;
    } else {
      std::string json;
      auto status = util::MessageToJsonString(*msg, &json);
      if (!status.ok())
        std::cout << "ERR " << OneLine(status.ToString()) << std::endl;
      else
        std::cout << "OK " << ToHex(json) << std::endl;
    }
  }
  return 0;
}
