import InvoicesReport
import Testing

/// The journal's one escaping rule (docs/exports.md, "books.journal"): what stays, what becomes `%XX`.
struct JournalTextTests {
    @Test(arguments: [
        ("C-00042", "C-00042"), ("Müller Atelier", "Müller Atelier"), ("Zoë Żak", "Zoë Żak"),
        ("C-3  two", "C-3%20%20two"),
        (" lead", "%20lead"), ("trail ", "trail%20"), ("a;b", "a%3Bb"), ("100%", "100%25"), ("C%41", "C%2541"),
        ("line\nnext", "line%0Anext"), ("tab\tx", "tab%09x"), ("x:y", "x%3Ay"), ("\"q'", "%22q%27"),
        ("(INV)", "%28INV%29"),
        ("a|b", "a%7Cb"), ("[2020-01-01]", "%5B2020-01-01%5D"), ("* !@=#", "%2A %21%40%3D%23"),
        ("\u{2028}", "%E2%80%A8"),
        ("a/b-c_d.e,f&g+h", "a/b-c_d.e,f&g+h"), ("", ""),
    ])
    func escapes(text: String, expected: String) {
        #expect(JournalText.escape(text) == expected)
        #expect(JournalText.escape(text).removingPercentEncoding == text)
    }

    @Test func configuredAccountsMustBePlain() {
        #expect(JournalAccounts.problem("income:services") == nil)
        #expect(JournalAccounts.problem("equity:opening balances") == nil)
        #expect(JournalAccounts.problem("liabilities:vat;x")?.contains("holds 'vat;x', which is not plain") == true)
        #expect(JournalAccounts.problem("a::b")?.contains("is not an account name") == true)
        #expect(JournalAccounts.problem("")?.contains("is not an account name") == true)
        #expect(JournalAccounts.problem("a:b ") != nil)
        var accounts = JournalAccounts()
        accounts[key: "write_offs"] = "expenses:bad debts"
        #expect(accounts.writeOffs == "expenses:bad debts" && accounts[key: "write_offs"] == "expenses:bad debts")
        #expect(
            JournalAccounts.keys.allSatisfy {
                JournalAccounts()[key: $0].map { JournalAccounts.problem($0) == nil } == true
            })
    }
}

/// books.beancount's escaping rules (docs/exports.md, "books.beancount"): account components and strings.
struct BeancountTextTests {
    @Test(arguments: [
        ("C-00042", "C-00042"), ("EUR", "EUR"), ("9X", "9X"), ("VAT 20%", "XVAT-2020-25"),
        ("MWST 7.7%", "XMWST-207-2E7-25"), ("c-1", "Xc-2D1"), ("X1", "XX1"), ("Zoë", "XZo-C3-AB"), ("", "X"),
        ("C-1\ninclude x", "XC-2D1-0Ainclude-20x"), ("C-6:sub", "XC-2D6-3Asub"), ("-1", "X-2D1"),
    ])
    func components(text: String, expected: String) {
        let component = BeancountText.component(text)
        #expect(component == expected)
        // A valid beancount component: an uppercase letter or digit, then letters, digits and dashes.
        #expect(component.wholeMatch(of: /[A-Z0-9][A-Za-z0-9-]*/) != nil)
    }

    @Test(arguments: [
        ("Zoë Żak", "Zoë Żak"), ("a \"b\" \\ c", "a \\\"b\\\" \\\\ c"), ("100%", "100%25"),
        ("line\nnext\r", "line%0Anext%0D"), ("tab\tx", "tab%09x"), ("\u{2028}", "%E2%80%A8"), ("", ""),
    ])
    func strings(text: String, expected: String) {
        #expect(BeancountText.string(text) == expected)
        #expect(BeancountText.string(text).unicodeScalars.allSatisfy { $0.value >= 32 })
    }
}
