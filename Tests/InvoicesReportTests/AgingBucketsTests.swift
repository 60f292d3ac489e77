import InvoicesReport
import Testing

/// The aging buckets' list (issue 45, item 6): what it accepts, where a day past due falls, and the column names.
struct AgingBucketsTests {
    @Test func aDayFallsInTheBucketWhoseLimitIsTheFirstNotBelowIt() throws {
        let buckets = try AgingBuckets.parse("15, 45").get()
        #expect(buckets.limits == [15, 45])
        #expect([-3, 0, 1, 15, 16, 45, 46, 10_000].map(buckets.index(daysLate:)) == [0, 0, 1, 1, 2, 2, 3, 3])
        #expect(buckets.count == 4)
    }

    @Test func theColumnNamesFollowTheRule() throws {
        #expect(AgingBuckets.standard.columnNames == ["not_due", "days_1_30", "days_31_60", "days_61_90", "days_over_90"])
        #expect(try AgingBuckets.parse("30,60,90").get() == .standard)
        #expect(try AgingBuckets.parse("30,60,90,120,180").get().columnNames == [
            "not_due", "days_1_30", "days_31_60", "days_61_90", "days_91_120", "days_121_180", "days_over_180",
        ])
        #expect(try AgingBuckets.parse("1").get().columnNames == ["not_due", "days_1_1", "days_over_1"])
        #expect(ReportExports.agingColumns(.standard) == ReportExports.agingColumns)
    }

    @Test(arguments: ["", " ", "30,30", "60,30", "0", "-1,30", "30,", "1,2,3,4,5,6,7,8,9", "x", "10000"])
    func aBadListIsRefusedNamingIt(text: String) {
        guard case .failure(let problem) = AgingBuckets.parse(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
        #expect(problem.description.hasPrefix("'\(text)'"))
    }

    @Test func eightLimitsAreAllowed() throws {
        #expect(try AgingBuckets.parse("1,2,3,4,5,6,7,8").get().count == 10)
    }
}
