/// The web-server configuration `invoices publish --server` writes for the published sub-path.
///
/// Both variants serve `DEST/current` (the folder the release switch points at) under ``urlPath``, ask for a
/// password from the htpasswd file beside the releases (when there are users), let client links (`c/<token>/`)
/// through without one, send `X-Robots-Tag: noindex` (unless public), `Referrer-Policy: no-referrer`, and cache
/// headers: assets a week, pages five minutes, both `private` so no shared cache keeps them.
public struct ServerSnippet: Sendable {
    /// Which web server to configure.
    public enum Kind: String, Sendable, CaseIterable {
        /// A `location` block to include in a `server { }` block: `DEST/nginx.conf`.
        case nginx
        /// `.htaccess` files inside the release (the site's root and `c/`).
        case apache
    }

    public var kind: Kind
    /// The folder the releases are published into, as the server sees it (absolute).
    public var destination: String
    /// The address path the site is served under, starting and ending with `/` (e.g. `/reports/`).
    public var urlPath: String
    /// Whether readers must log in (a users file was given).
    public var authentication: Bool
    /// Whether search engines may index the pages (`--public`).
    public var isPublic: Bool

    public init(kind: Kind, destination: String, urlPath: String, authentication: Bool, isPublic: Bool) {
        self.kind = kind
        self.destination = destination
        self.urlPath = urlPath
        self.authentication = authentication
        self.isPublic = isPublic
    }

    /// The name of the htpasswd file in the destination folder.
    public static let htpasswdName = "htpasswd"
    /// Cache lifetimes in seconds: assets (stylesheets, images), pages (HTML and the exports).
    public static let assetSeconds = 604_800, pageSeconds = 300

    /// `urlPath` normalized to start and end with `/`; nil when it holds characters that do not belong in a path.
    public static func normalizedURLPath(_ text: String) -> String? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/-._~".contains($0)) }), !text.contains("..") else { return nil }
        var path = text.hasPrefix("/") ? text : "/" + text
        if !path.hasSuffix("/") { path += "/" }
        return path.replacingOccurrences(of: "//", with: "/")
    }

    /// The files to write, by path: relative to the destination folder for nginx, to the release for Apache.
    public var files: [(path: String, text: String)] {
        switch kind {
        case .nginx: [("nginx.conf", nginx)]
        case .apache: [(".htaccess", apacheRoot), ("c/.htaccess", apacheClientLinks)]
        }
    }

    var headers: [(String, String)] {
        var headers: [(String, String)] = []
        if !isPublic { headers.append(("X-Robots-Tag", "noindex, nofollow")) }
        headers.append(("Referrer-Policy", "no-referrer"))
        headers.append(("X-Content-Type-Options", "nosniff"))
        return headers
    }

    /// The nginx `location` blocks. nginx drops inherited `add_header`s in a block that has its own, so every
    /// block repeats them.
    var nginx: String {
        func headerLines(cache: String, indent: String) -> String {
            (headers + [("Cache-Control", cache)]).map { "\(indent)add_header \($0.0) \"\($0.1)\" always;\n" }.joined()
        }
        let root = destination + "/current/"
        let pages = "private, max-age=\(Self.pageSeconds), must-revalidate"
        let assets = "private, max-age=\(Self.assetSeconds)"
        let auth = authentication
            ? "    auth_basic \"Invoices report\";\n    auth_basic_user_file \(destination)/\(Self.htpasswdName);\n" : ""
        return """
            # Written by `invoices publish --server nginx`: include it inside a server { } block, e.g.
            #     include \(destination)/nginx.conf;
            # then `nginx -s reload`. It serves \(root) (the current release) at \(urlPath).
            location \(urlPath) {
                alias \(root);
                index index.html;
                autoindex off;
            \(auth)    error_page 404 \(urlPath)404.html;
            \(headerLines(cache: pages, indent: "    "))
                # Hidden files (.htaccess, .current.new) are never served.
                location ~ /\\. {
                    return 404;
                }
                # Assets are not fingerprinted, so a week rather than a year.
                location ~* \\.(css|svg|png|jpe?g|gif|ico|woff2?)$ {
            \(headerLines(cache: assets, indent: "        "))    }
                # The not-found page holds no data; it is shown without a password too.
                location = \(urlPath)404.html {
                    auth_basic off;
            \(headerLines(cache: pages, indent: "        "))    }
                # Client links: the unguessable token is the credential. No listing of the tokens.
                location = \(urlPath)c/ {
                    return 404;
                }
                location \(urlPath)c/ {
                    auth_basic off;
                    try_files $uri $uri/index.html =404;
            \(headerLines(cache: "private, no-store", indent: "        "))    }
            }

            """
    }

    var apacheHeaders: String {
        headers.map { "    Header always set \($0.0) \"\($0.1)\"\n" }.joined()
    }

    /// `.htaccess` at the site's root (needs `AllowOverride AuthConfig FileInfo Indexes` and mod_headers).
    var apacheRoot: String {
        let auth = authentication ? """
            AuthType Basic
            AuthName "Invoices report"
            AuthUserFile \(destination)/\(Self.htpasswdName)
            Require valid-user
            <Files "404.html">
                Require all granted
            </Files>

            """ : ""
        return """
            # Written by `invoices publish --server apache`. The site is served from \(destination)/current at \(urlPath).
            \(auth)Options -Indexes
            DirectoryIndex index.html
            ErrorDocument 404 \(urlPath)404.html
            <IfModule mod_headers.c>
            \(apacheHeaders)    Header set Cache-Control "private, max-age=\(Self.pageSeconds), must-revalidate"
                <FilesMatch "\\.(css|svg|png|jpe?g|gif|ico|woff2?)$">
                    Header set Cache-Control "private, max-age=\(Self.assetSeconds)"
                </FilesMatch>
            </IfModule>

            """
    }

    /// `c/.htaccess`: client links need no password; the token is the credential.
    var apacheClientLinks: String {
        """
        # Written by `invoices publish --server apache`: client links need no password.
        AuthType None
        Require all granted
        Options -Indexes
        <IfModule mod_headers.c>
            Header always set Cache-Control "private, no-store"
        </IfModule>

        """
    }
}
