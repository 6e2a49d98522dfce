import Foundation

/// The executables SwiftPM builds beside the test bundle, for tests that run them as a user would.
package enum TestExecutables {
    /// The `locwire` command line tool of this build.
    package static var locwire: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("locwire")
    }
}
