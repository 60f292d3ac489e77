import InvoicesCore
import Testing

struct CSVDocumentTests {
    func parse(_ text: String) throws(CSVDocument.SyntaxError) -> CSVDocument { try CSVDocument(bytes: Array(text.utf8)) }

    @Test func quotedFieldsWithCommasQuotesAndLineBreaksKeepTheirLines() throws {
        let document = try parse("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",z\r\n\r\nlast,row")
        #expect(document.header == ["a", "b"])
        #expect(document.records.map(\.fields) == [["x, y", "say \"hi\""], ["two\nlines", "z"], ["last", "row"]])
        #expect(document.records.map(\.line) == [2, 3, 6])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let document = try CSVDocument(bytes: [0xEF, 0xBB, 0xBF] + Array("number,name\nC-1,A\n".utf8))
        #expect(document.header == ["number", "name"])
        #expect(document.records.count == 1)
    }

    @Test func anUnclosedQuoteIsAnErrorAtItsLine() throws {
        let error = try #require(throws: CSVDocument.SyntaxError.self) { try parse("a,b\n1,2\n\"open,3\n4,5\n") }
        #expect(error.line == 3)
    }

    @Test func textAfterAClosingQuoteIsAnError() throws {
        let error = try #require(throws: CSVDocument.SyntaxError.self) { try parse("a,b\n\"x\"y,2\n") }
        #expect(error.line == 2)
    }
}
