/// Publishing failed; the published site (`current`) is left as it was unless the message says otherwise.
public struct PublishError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was; the CLI maps each to a sysexits code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable { case usage, badInput, missingInput, unavailable, transfer, cannotCreate, internalError }
        private let base: Base
        /// A bad destination, option or setting (64).
        public static var usage: Self { Self(base: .usage) }
        /// A users file or key with bad content (65).
        public static var badInput: Self { Self(base: .badInput) }
        /// The site folder, users file or key is missing (66).
        public static var missingInput: Self { Self(base: .missingInput) }
        /// The server cannot be reached, or `ssh`/`rsync` is not installed (69).
        public static var unavailable: Self { Self(base: .unavailable) }
        /// The upload or a step on the server failed (74).
        public static var transfer: Self { Self(base: .transfer) }
        /// A local file (htpasswd, snippet) cannot be written (73).
        public static var cannotCreate: Self { Self(base: .cannotCreate) }
        /// A bug or an unexpected answer (70).
        public static var internalError: Self { Self(base: .internalError) }

        public var description: String { "\(base)" }
    }

    public var code: Code
    public var message: String
    public var description: String { message }

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
