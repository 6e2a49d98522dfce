// Float formatting oracle: builds a LocationBatch whose fixes carry chosen float bit patterns in pressure_hpa,
// writes its binary encoding and the JSON that Google's C++ MessageToJsonString prints for it. float_format_check.sh
// then requires `locwire convert --to json` to print exactly the same text.
//
// Usage: float_format_check COUNT SEED OUT.binpb OUT.json
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include <google/protobuf/util/json_util.h>

#include "locationwire/v1/location_batch.pb.h"

static float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  const long count = std::stol(argv[1]);
  std::mt19937_64 random(std::stoull(argv[2]));
  locationwire::v1::LocationBatch batch;
  auto add = [&](uint32_t bits) { batch.add_fixes()->set_pressure_hpa(FromBits(bits)); };
  // Edges: zeros, the subnormal range ends, the normal range ends, powers of two and ten, NaN, infinities.
  for (uint32_t bits : {0x00000000u, 0x80000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu,
                        0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u, 0x49742400u, 0x447d5000u})
    add(bits);
  for (int exponent = -149; exponent <= 127; ++exponent) add([&] { float v = std::ldexp(1.0f, exponent); uint32_t b; std::memcpy(&b, &v, 4); return b; }());
  for (int exponent = -45; exponent <= 38; ++exponent) { float v = std::pow(10.0f, exponent); uint32_t b; std::memcpy(&b, &v, 4); add(b); }
  // Random bit patterns, half of them in the subnormal and small-normal range where the rules are subtle.
  while (batch.fixes_size() < count) {
    uint32_t bits = static_cast<uint32_t>(random());
    if (random() & 1) bits &= 0x80ffffffu;
    add(bits);
  }
  std::string binary;
  batch.SerializeToString(&binary);
  std::string json;
  google::protobuf::util::MessageToJsonString(batch, &json);
  std::ofstream(argv[3], std::ios::binary) << binary;
  std::ofstream(argv[4], std::ios::binary) << json << "\n";
  return 0;
}
