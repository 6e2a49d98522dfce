import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationWireHTTP
@testable import LocationWireMockServer
@testable import LocationWireServer
import Testing

/// Each server routes exactly by the binding's endpoint table (`§http-endpoints`, `§http-allow`, `§http-head`,
/// `§http-check-order`): the endpoints it offers behind authentication, `404` `not-offered` for those it leaves
/// out, `405` with `Allow` for another method on an offered path, `404` `not-found` elsewhere, all before any
/// token is asked for.
@Suite struct RouteListTests {
    typealias Fixture = BatchEndpointTests

    /// Methods a client may send: the binding's, the other standard ones, and one nobody defines.
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .init("BREW")!]

    /// Sends every method to every endpoint's path (and to a path no endpoint has) without a token.
    static func checkAnswers<Context>(
        offering offered: Set<Endpoint>, on router: Router<Context>
    ) async throws where Context.Source == ApplicationRequestContextSource {
        try await Application(router: router).test(.router) { client in
            for endpoint in Endpoint.all {
                let path = endpoint.path(deviceId: "x")
                for method in Self.methods {
                    try await client.execute(uri: path, method: method) { response in
                        let where_ = "\(method) \(path)"
                        if !offered.contains(endpoint) {
                            #expect(response.status == .notFound, "\(where_)")
                            #expect(RouteTests.errorCode(response) == ErrorBody.Code.notOffered, "\(where_)")
                        } else if method.rawValue == endpoint.method {
                            #expect(response.status == .unauthorized, "\(where_)")
                            #expect(response.headers[.wwwAuthenticate] == "Bearer")
                        } else {
                            #expect(response.status == .methodNotAllowed, "\(where_)")
                            #expect(response.headers[.allow] == endpoint.method, "\(where_)")
                            #expect(RouteTests.errorCode(response) == ErrorBody.Code.methodNotAllowed)
                        }
                    }
                }
            }
            for path in ["/", "/v1", "/v1/batches/", "/v1/devices/x/other", "/v1/devices//fixes", "/v2/batches"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .notFound, "\(path)")
                    #expect(RouteTests.errorCode(response) == ErrorBody.Code.notFound, "\(path)")
                }
            }
        }
    }

    @Test func theReferenceServerRoutesByTheTable() async throws {
        let store = try SQLiteStorage()
        let configuration = ServerConfiguration(maxInFlight: 4, nowMs: { Fixture.nowMs })
        let list = makeServerRoutes(storage: store, configuration: configuration)
        // No catalogue and no policy: those two are not offered.
        #expect(Set(list.routes.map(\.endpoint)) == [.batches, .readBack, .ledger, .erasure])
        let router = makeServerRouter(storage: store, authenticator: store, configuration: configuration)
        try await Self.checkAnswers(offering: Set(list.routes.map(\.endpoint)), on: router)
    }

    @Test func theMockServerOffersOnlyBatchesAndJournalsWhatReachedItsRoute() async throws {
        let store = MockStore(spec: FaultSpec(entries: []), seed: 1, journal: nil, nowMs: { Fixture.nowMs })
        let list = makeMockServerRoutes(store: store, configuration: ServerConfiguration())
        #expect(list.routes.map(\.endpoint) == [.batches])
        let router = makeMockServerRouter(
            store: store, tokens: MockTokens(accepting: ["t"]), configuration: ServerConfiguration())
        try await Self.checkAnswers(offering: [.batches], on: router)
        // The 401 of POST /v1/batches was journaled as a refusal, and so was each request to /v1/regions, which
        // the report needs (`§http-regions-absent`); other routing answers are not.
        #expect(await store.faultCounts == ["none": 1 + Self.methods.count])
    }
}
