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
