// LocationWire conformance testee for protobuf-go (google.golang.org/protobuf), Go's protobuf runtime: an
// implementation of its own, sharing no code with Google's C++ library or upb, with its own strict protojson.
//
// Speaks the testee protocol of proto/locationwire/conformance/v1/testee.proto over stdin/stdout: every message
// is a 4-byte little-endian length followed by a serialized TesteeRequest (in) or TesteeResponse (out).
// Message types are looked up by full name in protoregistry.GlobalTypes, where the generated locationwire/v1
// package registers every message when it is imported (the conformance package imports it).
//
// Every operation uses the library's defaults: proto.Unmarshal (UTF-8 checked in proto3 strings, nesting limit
// protowire.DefaultRecursionLimit), proto.MarshalOptions{Deterministic: true}, protojson.Unmarshal (unknown JSON
// fields are errors) and protojson.Marshal (lowerCamelCase names, fields without presence left out when
// default). Built by build.sh (which generates the code this imports); see conformance/testees/README.md.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	cv1 "locwiretestee/gen/conformancev1"
)

const (
	implementation  = "go-protobuf"
	messagePackage  = "locationwire.v1"
	protocolVersion = 1
)

// protobufVersion is protobuf-go's version, set by build.sh from the library's source (-ldflags -X).
var protobufVersion = "unknown"

// hasUnknownFields reports whether m or any message inside it carries fields this build does not know: a
// request with such fields comes from a newer runner, and the testee fails loudly rather than guess.
func hasUnknownFields(m protoreflect.Message) bool {
	if len(m.GetUnknown()) > 0 {
		return true
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			list := v.List()
			for i := 0; i < list.Len() && !found; i++ {
				found = hasUnknownFields(list.Get(i).Message())
			}
		case fd.IsMap() && fd.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, value protoreflect.Value) bool {
				found = hasUnknownFields(value.Message())
				return !found
			})
		case !fd.IsList() && !fd.IsMap() && fd.Message() != nil:
			found = hasUnknownFields(v.Message())
		}
		return !found
	})
	return found
}

// handleVector answers one vector: the checks are read first (an unknown one means a newer runner), then the
// type is looked up and the input decoded, then every output asked for is produced.
func handleVector(request *cv1.VectorRequest, understood bool) *cv1.VectorResponse {
	response := &cv1.VectorResponse{VectorId: request.GetVectorId()}
	if !understood {
		response.Result = &cv1.VectorResponse_RuntimeError{
			RuntimeError: "request has unknown fields: this testee is older than the runner's protocol"}
		return response
	}

	wantBinary, wantJSON := false, false
	var unsupported []string
	for _, check := range request.GetChecks() {
		switch check {
		case cv1.Check_CHECK_BINARY_OUTPUT:
			wantBinary = true
		case cv1.Check_CHECK_JSON_OUTPUT:
			wantJSON = true
		case cv1.Check_CHECK_VALIDATE, cv1.Check_CHECK_COMPACT_TO_ROWS, cv1.Check_CHECK_ROWS_TO_COMPACT:
			unsupported = append(unsupported, check.String())
		default: // CHECK_UNSPECIFIED or a value this build does not know
			response.Result = &cv1.VectorResponse_RuntimeError{RuntimeError: fmt.Sprintf("unknown check %d", int32(check))}
			return response
		}
	}
	if len(unsupported) > 0 {
		response.Result = &cv1.VectorResponse_Skipped{Skipped: fmt.Sprintf("not supported: %v", unsupported)}
		return response
	}

	// The registry also holds the protocol's own messages: admit only locationwire.v1 ones.
	messageType, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(request.GetMessageType()))
	if err != nil || messageType.Descriptor().ParentFile().Package() != messagePackage {
		response.Result = &cv1.VectorResponse_Skipped{Skipped: fmt.Sprintf("unknown message type %q", request.GetMessageType())}
		return response
	}
	message := messageType.New().Interface()

	switch input := request.GetInput().(type) {
	case *cv1.VectorRequest_BinaryInput:
		err = proto.Unmarshal(input.BinaryInput, message)
	case *cv1.VectorRequest_JsonInput:
		err = protojson.Unmarshal([]byte(input.JsonInput), message)
	default:
		response.Result = &cv1.VectorResponse_RuntimeError{RuntimeError: "vector has no input"}
		return response
	}
	if err != nil {
		response.Result = &cv1.VectorResponse_ParseError{ParseError: &cv1.ParseError{Message: err.Error()}}
		return response
	}

	decoded := &cv1.Decoded{} // "decoded" even when no output is asked for
	if wantBinary {
		bytes, err := proto.MarshalOptions{Deterministic: true}.Marshal(message)
		if err != nil {
			response.Result = &cv1.VectorResponse_RuntimeError{RuntimeError: "proto.Marshal failed: " + err.Error()}
			return response
		}
		decoded.BinaryOutput = bytes
	}
	if wantJSON {
		json, err := protojson.Marshal(message)
		if err != nil {
			response.Result = &cv1.VectorResponse_RuntimeError{RuntimeError: "protojson.Marshal failed: " + err.Error()}
			return response
		}
		decoded.JsonOutput = string(json)
	}
	response.Result = &cv1.VectorResponse_Decoded{Decoded: decoded}
	return response
}

// skipKind answers a request this codec-only testee has no engine for (session, ledger, recording, fences,
// planning, arming) with `skipped` in the response of the same kind: every such response has vector_id (1) and
// a string skipped, which are set by name so that each kind needs no code of its own.
func skipKind(request *cv1.TesteeRequest, kind protoreflect.FieldDescriptor) (*cv1.TesteeResponse, error) {
	response := &cv1.TesteeResponse{}
	responseReflect := response.ProtoReflect()
	responseField := responseReflect.Descriptor().Fields().ByName(kind.Name())
	if responseField == nil || responseField.Message() == nil {
		return nil, fmt.Errorf("no response of kind %s", kind.Name())
	}
	reply := responseReflect.NewField(responseField).Message()
	idField := reply.Descriptor().Fields().ByName("vector_id")
	skippedField := reply.Descriptor().Fields().ByName("skipped")
	if idField == nil || skippedField == nil {
		return nil, fmt.Errorf("%s has no vector_id or skipped", reply.Descriptor().FullName())
	}
	requestBody := request.ProtoReflect().Get(kind).Message()
	if requestIDField := requestBody.Descriptor().Fields().ByName("vector_id"); requestIDField != nil {
		reply.Set(idField, requestBody.Get(requestIDField))
	}
	reply.Set(skippedField, protoreflect.ValueOfString(
		fmt.Sprintf("%s requests are not supported: a codec-only testee", kind.Name())))
	responseReflect.Set(responseField, protoreflect.ValueOfMessage(reply))
	return response, nil
}

// answer returns the response to one request, or exits when a hello cannot be understood.
func answer(request *cv1.TesteeRequest) *cv1.TesteeResponse {
	understood := !hasUnknownFields(request.ProtoReflect())
	switch kind := request.GetKind().(type) {
	case *cv1.TesteeRequest_Hello:
		if !understood { // a hello cannot carry runtime_error: stop instead
			fmt.Fprintln(os.Stderr, "go-testee: hello has unknown fields: this testee is older than the runner's protocol")
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "%s %s: hello from runner %q, protocol %d\n", implementation, protobufVersion,
			kind.Hello.GetRunner(), kind.Hello.GetProtocolVersion())
		return &cv1.TesteeResponse{Kind: &cv1.TesteeResponse_Hello{Hello: &cv1.HelloResponse{
			ProtocolVersion: protocolVersion,
			Implementation:  implementation,
			Version:         protobufVersion,
			Features: []cv1.Feature{cv1.Feature_FEATURE_BINARY_INPUT, cv1.Feature_FEATURE_BINARY_OUTPUT,
				cv1.Feature_FEATURE_JSON_INPUT, cv1.Feature_FEATURE_JSON_OUTPUT},
		}}}
	case *cv1.TesteeRequest_Vector:
		return &cv1.TesteeResponse{Kind: &cv1.TesteeResponse_Vector{Vector: handleVector(kind.Vector, understood)}}
	case nil:
		return runtimeError("", "request is empty: neither hello nor vector")
	default: // skipped whatever it holds, so fields this build does not know change nothing
		set := request.ProtoReflect().WhichOneof(request.ProtoReflect().Descriptor().Oneofs().ByName("kind"))
		response, err := skipKind(request, set)
		if err != nil {
			return runtimeError("", err.Error())
		}
		return response
	}
}

func runtimeError(vectorID, message string) *cv1.TesteeResponse {
	return &cv1.TesteeResponse{Kind: &cv1.TesteeResponse_Vector{Vector: &cv1.VectorResponse{
		VectorId: vectorID, Result: &cv1.VectorResponse_RuntimeError{RuntimeError: message}}}}
}

// safeAnswer turns a panic into a runtime_error, so that a bug here costs one vector, never the session.
func safeAnswer(request *cv1.TesteeRequest) (response *cv1.TesteeResponse) {
	defer func() {
		if recovered := recover(); recovered != nil {
			response = runtimeError(request.GetVector().GetVectorId(), fmt.Sprintf("panic: %v", recovered))
		}
	}()
	return answer(request)
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	var header [4]byte
	for {
		if _, err := io.ReadFull(in, header[:]); err != nil {
			if errors.Is(err, io.EOF) { // end of input where a length is expected: the session is over
				os.Exit(0)
			}
			fmt.Fprintln(os.Stderr, "go-testee: input ends inside a length prefix:", err)
			os.Exit(2)
		}
		body := make([]byte, binary.LittleEndian.Uint32(header[:]))
		if _, err := io.ReadFull(in, body); err != nil {
			fmt.Fprintf(os.Stderr, "go-testee: input ends inside a request of %d bytes: %v\n", len(body), err)
			os.Exit(2)
		}

		request := &cv1.TesteeRequest{}
		var response *cv1.TesteeResponse
		if err := proto.Unmarshal(body, request); err != nil {
			response = runtimeError("", "cannot parse TesteeRequest: "+err.Error())
		} else {
			response = safeAnswer(request)
		}
		bytes, err := proto.Marshal(response)
		if err != nil {
			fmt.Fprintln(os.Stderr, "go-testee: cannot serialize TesteeResponse:", err)
			os.Exit(2)
		}
		binary.LittleEndian.PutUint32(header[:], uint32(len(bytes)))
		_, err = out.Write(header[:])
		if err == nil {
			_, err = out.Write(bytes)
		}
		if err == nil {
			err = out.Flush() // the runner waits for every response
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "go-testee: cannot write to stdout:", err)
			os.Exit(2)
		}
	}
}
