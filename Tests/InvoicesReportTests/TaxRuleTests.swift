import InvoicesCore
@testable import InvoicesReport
import Testing

/// The one tax rule (issue 42): what a tax line adds on each basis, which ``Report/taxes`` and
/// ``Report/taxSources(in:from:to:)`` both count through.
struct TaxRuleTests {
    /// 1000.00 net + 77.00 MWST 7.7 % on an invoice of 1077.00 (docs/exports.md's worked example).
    static let line = TaxLineSnapshot(invoiceIndex: 0, taxIndex: 0, net: 100_000, amount: 7_700)

    @Test func accrualCountsAnInvoiceAndSubtractsACreditNote() {
        var figures = TaxFigures()
        #expect(TaxRule.addAccrual(Self.line, kind: .invoice, to: &figures))
        #expect(figures == TaxFigures(accrualNet: 100_000, accrualTax: 7_700))
        #expect(TaxRule.addAccrual(Self.line, kind: .creditNote, to: &figures))
        #expect(figures == TaxFigures())
    }

    @Test func cashIsEachPaymentsShareRoundedHalfToEven() {
        var figures = TaxFigures()
        // 500.00 of 1077.00: net 46425.26… → 46425, tax 3574.74… → 3575; a refund of it gives the negative share.
        #expect(TaxRule.addCash(50_000, Self.line, gross: 107_700, to: &figures))
        #expect(figures == TaxFigures(cashNet: 46_425, cashTax: 3_575))
        #expect(TaxRule.addCash(-50_000, Self.line, gross: 107_700, to: &figures))
        #expect(figures == TaxFigures())
    }

    /// An overflow is reported, and both sums are still made (wrapping), so the net and tax never drift apart.
    @Test func anOverflowIsReportedWithBothSumsMade() {
        var figures = TaxFigures(accrualNet: .max, accrualTax: 0)
        #expect(!TaxRule.addAccrual(Self.line, kind: .invoice, to: &figures))
        #expect(figures.accrualNet == Int64.max &+ 100_000 && figures.accrualTax == 7_700)
        var cash = TaxFigures(cashNet: .max)
        #expect(!TaxRule.addCash(107_700, Self.line, gross: 107_700, to: &cash))
        #expect(cash.cashNet == Int64.max &+ 100_000 && cash.cashTax == 7_700)
    }

    /// Per month, the invoices behind each tax row (walking the payments) sum to the row (walking ledger events).
    @Test func bothWalksGiveTheSameFiguresEveryMonth() throws {
        let books = try ExportsTests().generatedBooks()
        let report = try Report(books: books)
        var active = 0
        for (offset, month) in report.months.enumerated() {
            let sources = Report.taxSources(in: books, from: month.firstDay, to: month.lastDay)
            for totals in report.taxes {
                var sum = TaxFigures()
                for source in sources[TaxKey(currency: totals.currency, taxIndex: totals.taxIndex)] ?? [] {
                    let added = sum.add(source.figures)
                    #expect(added)
                }
                #expect(sum == totals.months[offset], "\(month) \(totals.currency)")
                if sum.isActive { active += 1 }
            }
        }
        #expect(active > 20)
    }
}
