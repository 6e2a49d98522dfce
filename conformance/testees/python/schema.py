"""Where the Python testee's messages come from: the *_pb2 modules build.sh generated into build/gen (needs
protoc), or a descriptor set (`protoc --include_imports --descriptor_set_out`; the release archive ships one), which
needs neither protoc nor generated code.

    load_testee_protocol([])                         the generated modules
    load_testee_protocol(["--descriptors", FILE])    the descriptor set

Either way every locationwire.v1 message is in the default pool, where the testee finds types by name, and the
module returned offers what testee_pb2 does: the testee protocol's message classes, enum wrappers and enum values.
"""
import glob, importlib, os, sys, types

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import enum_type_wrapper

TESTEE_PROTO = "locationwire/conformance/v1/testee.proto"


def load_testee_protocol(arguments):
    if arguments[:1] == ["--descriptors"] and len(arguments) == 2:
        return from_descriptors(arguments[1])
    if arguments:
        sys.exit("usage: testee.py [--descriptors FILE]")
    return from_generated_code()


def from_generated_code():
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "gen")
    if not os.path.isdir(gen):
        sys.exit("testee.py: no build/gen: run build.sh first, or pass --descriptors FILE")
    sys.path.insert(0, gen)
    for path in sorted(glob.glob(os.path.join(gen, "locationwire", "v1", "*_pb2.py"))):
        importlib.import_module("locationwire.v1." + os.path.basename(path)[:-3])
    return importlib.import_module("locationwire.conformance.v1.testee_pb2")


def from_descriptors(path):
    with open(path, "rb") as file:
        files = descriptor_pb2.FileDescriptorSet.FromString(file.read()).file
    classes = message_factory.GetMessages(files, pool=descriptor_pool.Default())
    testee = descriptor_pool.Default().FindFileByName(TESTEE_PROTO)
    protocol = types.SimpleNamespace()
    for name, descriptor in testee.message_types_by_name.items():
        setattr(protocol, name, classes[descriptor.full_name])
    for name, descriptor in testee.enum_types_by_name.items():
        setattr(protocol, name, enum_type_wrapper.EnumTypeWrapper(descriptor))
        for value in descriptor.values:
            setattr(protocol, value.name, value.number)
    return protocol
