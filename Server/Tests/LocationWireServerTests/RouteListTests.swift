import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationWireHTTP
@testable import LocationWireMockServer
@testable import LocationWireServer
import Testing

/// Each server's router holds exactly what its route list declares: every route, behind authentication, and a
/// 405 for every other method of its paths; nothing else. (`§http-error-codes`, `§http-auth-errors`.)
@Suite struct RouteListTests {
    typealias Fixture = BatchEndpointTests

    /// "METHOD /path" for each registration the list implies: its routes, and 405s on its paths.
    static func expectedRegistrations<Context>(_ list: RouteList<Context>) -> Set<String> {
        var expected = Set(list.routes.map { "\($0.method) \(RouterPath($0.path))" })
        for (path, _) in list.methodsByPath {
            for method in RouteList<Context>.refusedMethods { expected.insert("\(method) \(RouterPath(path))") }
        }
        return expected
    }

    /// A path that matches `pattern`, with `x` for each parameter.
    static func concrete(_ pattern: String) -> String {
        pattern.split(separator: "/").map { $0.hasPrefix(":") ? "x" : String($0) }.reduce("") { "\($0)/\($1)" }
    }

    /// Sends every refused method to every listed path without a token: a method the list gives the path is
    /// 401 (the route is behind authentication), any other is 405 with the list's methods in `Allow`.
    static func checkAnswers<Context>(
        of list: RouteList<Context>, on router: Router<Context>
    ) async throws where Context.Source == ApplicationRequestContextSource {
        try await Application(router: router).test(.router) { client in
            for (path, methods) in list.methodsByPath {
                for method in RouteList<Context>.refusedMethods {
                    try await client.execute(uri: concrete(path), method: method) { response in
                        if methods.contains(method) {
                            #expect(response.status == .unauthorized, "\(method) \(path)")
                            #expect(response.headers[.wwwAuthenticate] == "Bearer")
                        } else {
                            #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                            #expect(response.headers[.allow] == methods.map(\.rawValue).joined(separator: ", "))
                            #expect(RouteTests.errorCode(response) == ErrorBody.Code.methodNotAllowed)
                        }
                    }
                }
            }
        }
    }

    @Test func theReferenceServerRegistersItsListAndNothingElse() async throws {
        let store = try SQLiteStorage()
        let configuration = ServerConfiguration(maxInFlight: 4, nowMs: { Fixture.nowMs })
        let list = makeServerRoutes(storage: store, configuration: configuration)
        let router = makeServerRouter(storage: store, authenticator: store, configuration: configuration)
        #expect(Set(router.routes.map { "\($0.method) \($0.path)" }) == Self.expectedRegistrations(list))
        #expect(
            list.methodsByPath.map(\.path).sorted()
                == [
                    Binding.batchesPath, Binding.policyPath, Binding.regionsPath, "/v1/devices/:device/fixes",
                    "/v1/devices/:device",
                ].sorted())
        try await Self.checkAnswers(of: list, on: router)
    }

    @Test func theMockServerRegistersItsListAndJournalsOnlyWhatReachedItsRoutes() async throws {
        let store = MockStore(spec: FaultSpec(entries: []), seed: 1, journal: nil, nowMs: { Fixture.nowMs })
        let list = makeMockServerRoutes(store: store, configuration: ServerConfiguration())
        let router = makeMockServerRouter(
            store: store, tokens: MockTokens(accepting: ["t"]), configuration: ServerConfiguration())
        #expect(Set(router.routes.map { "\($0.method) \($0.path)" }) == Self.expectedRegistrations(list))
        #expect(list.methodsByPath.map(\.path) == [Binding.batchesPath])
        try await Self.checkAnswers(of: list, on: router)
        // The 401 of POST was journaled as a refusal; the four 405s were not, as 404s are not.
        #expect(await store.faultCounts == ["none": 1])
    }

    /// A path with several methods: one `Allow` naming them all.
    @Test func aPathWithTwoMethodsAllowsBoth() async throws {
        let answer: @Sendable (Request, ServerRequestContext, String) async throws -> Response = { _, _, _ in
            Response(status: .noContent)
        }
        let list = RouteList<ServerRequestContext>([
            .init(.get, "/a", handler: answer), .init(.put, "/a", handler: answer),
        ])
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: ErrorBodyMiddleware())
        list.register(on: router, authenticator: MockTokens(), configuration: ServerConfiguration())
        #expect(list.methodsByPath.map(\.methods) == [[.get, .put]])
        try await Self.checkAnswers(of: list, on: router)
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/a", method: .put, headers: [.authorization: "Bearer any"]) { response in
                #expect(response.status == .noContent)
            }
        }
    }
}
