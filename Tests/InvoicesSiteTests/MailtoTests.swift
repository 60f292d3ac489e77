@testable import InvoicesSite
import Testing

/// Client e-mail values: a `mailto:` link only for an address (`SiteTests.onlyAnAddressBecomesAMailtoLink` checks the
/// page; here the rule itself).
struct MailtoTests {
    /// `mailto:` is made only for an RFC 5322 addr-spec of dot-atoms with a domain of host-name labels.
    @Test(arguments: [
        ("ap@acme.example", true), ("first.last+tag@mail.example.co.uk", true), ("o'brien@x-y.example", true),
        ("a!#$%&'*+-/=?^_`{|}~@x.example", true), ("call +49 89 123 (office)", false), ("ap@localhost", false),
        ("a..b@x.example", false), (".a@x.example", false), ("a.@x.example", false), ("a@x..example", false),
        ("\"a b\"@x.example", false), ("a@[192.0.2.1]", false), ("jörg@x.example", false), ("a@-x.example", false),
        ("a@x-.example", false), ("a b@x.example", false), ("a@x.example, b@y.example", false), ("mailto:a@x.example", false),
        ("a@b@x.example", false), ("@x.example", false), ("a@", false), ("", false), ("a@x.example\n", false),
        (String(repeating: "a", count: 65) + "@x.example", false),
    ])
    func onlyAnAddrSpecIsAnAddress(text: String, isAddress: Bool) {
        #expect(SiteBuilder.isAddress(text) == isAddress, "\(text)")
    }
}
