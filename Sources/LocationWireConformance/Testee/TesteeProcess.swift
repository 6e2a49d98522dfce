import Foundation
import LocationWire

/// An implementation under test, running as a subprocess that speaks the testee protocol on its stdin and
/// stdout. The runner and the differential fuzzer drive every implementation, the built-in one included,
/// through this type.
///
/// A testee that crashes or does not answer in time costs the vector it was working on: the process is killed
/// and the next request starts a fresh one. Its standard error goes to a log file whose tail is reported with a
/// crash.
public final class TesteeProcess {
    /// How a request ended.
    public enum Reply<Response: Sendable>: Sendable {
        case response(Response)
        /// The testee exited or broke the framing; the string says how, with the tail of its stderr.
        case crashed(String)
        case timedOut
    }

    /// How a vector request ended.
    public typealias Outcome = Reply<VectorResponse>

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The shell command that starts the testee.
    public let command: String
    /// The hello the current (or last) process answered.
    public private(set) var hello: HelloResponse?
    /// How many times a process was started.
    public private(set) var starts = 0
    private var process: Process?
    private var stream: FramedStream?
    private var toTestee: FileHandle?
    private var fromTestee: FileHandle?
    private let stderrLog: URL
    private let runnerName: String

    public init(command: String, runnerName: String = "locwire-conformance-runner/1.0.0") {
        self.command = command
        self.runnerName = runnerName
        self.stderrLog = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "locwire-testee-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).log")
        // A testee that dies while we write to it must not take the runner down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: stderrLog)
    }

    /// Starts the process (if it is not running) and performs the hello exchange.
    @discardableResult
    public func start(timeoutMilliseconds: Int = 30_000) throws -> HelloResponse {
        if let hello, process?.isRunning == true { return hello }
        stop()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec " + command]
        let input = Pipe()
        let output = Pipe()
        _ = FileManager.default.createFile(atPath: stderrLog.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: stderrLog)
        do {
            try process.run()
        } catch {
            throw StartFailure(description: "cannot start testee '\(command)': \(error.localizedDescription)")
        }
        starts += 1
        self.process = process
        self.toTestee = input.fileHandleForWriting
        self.fromTestee = output.fileHandleForReading
        let stream = FramedStream(
            input: output.fileHandleForReading.fileDescriptor, output: input.fileHandleForWriting.fileDescriptor)
        self.stream = stream
        var helloRequest = HelloRequest()
        helloRequest.protocolVersion = BuiltinTestee.protocolVersion
        helloRequest.runner = runnerName
        switch exchange(TesteeRequest(.hello(helloRequest)), timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let response):
            guard case .hello(let hello) = response.kind else {
                stop()
                throw StartFailure(description: "testee '\(command)' answered the hello with something else")
            }
            guard hello.protocolVersion == BuiltinTestee.protocolVersion else {
                stop()
                throw StartFailure(
                    description: "testee '\(command)' speaks protocol version \(hello.protocolVersion), not 1")
            }
            self.hello = hello
            return hello
        case .failure(let failure):
            let log = stderrTail()
            stop()
            throw StartFailure(
                description:
                    "testee '\(command)' did not answer the hello (\(failure))\(log.isEmpty ? "" : ":\n" + log)")
        }
    }

    /// Sends one vector and waits for the answer.
    public func run(_ request: VectorRequest, timeoutMilliseconds: Int) -> Outcome {
        perform(.vector(request), timeoutMilliseconds: timeoutMilliseconds, what: "a vector") { $0.vector }
    }

    /// Sends one session and waits for the answer.
    public func run(_ request: SessionRequest, timeoutMilliseconds: Int) -> Reply<SessionResponse> {
        perform(.session(request), timeoutMilliseconds: timeoutMilliseconds, what: "a session") { $0.session }
    }

    /// Sends one ledger request and waits for the answer.
    public func run(_ request: LedgerRequest, timeoutMilliseconds: Int) -> Reply<LedgerResponse> {
        perform(.ledger(request), timeoutMilliseconds: timeoutMilliseconds, what: "a ledger request") { $0.ledger }
    }

    /// Sends one behaviour request and waits for the answer.
    public func run<Request: BehaviorRequest>(_ request: Request, timeoutMilliseconds: Int) -> Reply<Request.Response> {
        perform(request.envelopeKind, timeoutMilliseconds: timeoutMilliseconds, what: "a behaviour request") {
            Request.response(in: $0)
        }
    }

    /// Sends one request (starting the testee if it is not running) and takes the answer of the same kind.
    private func perform<Response>(
        _ kind: TesteeRequest.Kind, timeoutMilliseconds: Int, what: String,
        answer: (TesteeResponse.Kind) -> Response?
    ) -> Reply<Response> {
        if process?.isRunning != true {
            do {
                try start(timeoutMilliseconds: timeoutMilliseconds)
            } catch {
                return .crashed("\(error)")
            }
        }
        switch exchange(TesteeRequest(kind), timeoutMilliseconds: timeoutMilliseconds) {
        case .success(let response):
            guard let kind = response.kind, let answer = answer(kind) else {
                stop()
                return .crashed("the testee answered \(what) with something else")
            }
            return .response(answer)
        case .failure(.timedOut):
            stop()
            return .timedOut
        case .failure(let failure):
            let status = terminate()
            let log = stderrTail()
            return .crashed("\(failure); \(status)\(log.isEmpty ? "" : "; stderr: " + log)")
        }
    }

    private enum ExchangeFailure: Error, CustomStringConvertible {
        case stream(FramedStream.Failure)
        case undecodable(DecodingError)
        case timedOut

        var description: String {
            switch self {
            case .stream(let failure): "\(failure)"
            case .undecodable(let error): "its response does not decode: \(error)"
            case .timedOut: "timed out"
            }
        }
    }

    private func exchange(_ request: TesteeRequest, timeoutMilliseconds: Int) -> Result<TesteeResponse, ExchangeFailure>
    {
        guard let stream else { return .failure(.stream(.broken("not running"))) }
        do {
            try stream.writeFrame(request.serializedBytes())
            let frame = try stream.readFrame(timeoutMilliseconds: timeoutMilliseconds)
            do {
                return .success(try TesteeResponse(serializedBytes: frame))
            } catch {
                return .failure(.undecodable(error))
            }
        } catch .timedOut {
            return .failure(.timedOut)
        } catch {
            return .failure(.stream(error))
        }
    }

    /// Ends the process: closes its input, and kills it if it does not exit at once.
    public func stop() {
        _ = terminate()
    }

    private func terminate() -> String {
        guard let process else { return "not running" }
        try? toTestee?.close()
        if process.isRunning {
            // Give a well-behaved testee a moment to exit on end of input, then kill it.
            for _ in 0..<20 where process.isRunning { usleep(5_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? fromTestee?.close()
        self.process = nil
        self.stream = nil
        self.toTestee = nil
        self.fromTestee = nil
        switch process.terminationReason {
        case .uncaughtSignal: return "killed by signal \(process.terminationStatus)"
        default: return "exit status \(process.terminationStatus)"
        }
    }

    /// The last lines the testee wrote to standard error.
    public func stderrTail(maxBytes: Int = 2000) -> String {
        guard let data = try? Data(contentsOf: stderrLog) else { return "" }
        let tail = data.suffix(maxBytes)
        return String(decoding: tail, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
