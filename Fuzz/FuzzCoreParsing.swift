// Compiled by scripts/fuzz.sh against InvoicesCore, a static library built for testing.
@testable import InvoicesCore

/// Properties of the parsers the store loader and the CLI use for dates and amounts: no crash on any input,
/// and round trips: `parse(format(x)) == x` and `format(parse(s)) == s` for canonical text.
///
/// The first byte picks what to test; the rest is the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let text = String(decoding: bytes, as: UTF8.self)
    let currencies = ["EUR", "JPY", "KWD", "USD", "CLF"].map { try! CurrencyCode($0) }
    switch data[0] % 4 {
    case 0:
        // A date from text: parses only YYYY-MM-DD of a real day, and then formats back to the same text.
        let fromText = CalendarDate(iso: text)
        let fromBytes = CalendarDate(isoBytes: bytes)
        check(fromText == fromBytes, "CalendarDate(iso:) and (isoBytes:) disagree on \(text.debugDescription)")
        if let date = fromText { check(date.description == text, "\(text.debugDescription) formats back as \(date)") }
        _ = YearMonth(iso: text)
    case 1:
        // A date from a day number within years 1...9999 formats and parses back to itself.
        var raw: Int32 = 0
        for (offset, byte) in bytes.prefix(4).enumerated() { raw |= Int32(byte) << (8 * offset) }
        let first = CalendarDate(year: 1, month: 1, day: 1)!.dayNumber
        let last = CalendarDate(year: 9999, month: 12, day: 31)!.dayNumber
        let date = CalendarDate(dayNumber: first + Int32(Int64(raw).magnitude % UInt64(last - first + 1)))
        check(CalendarDate(iso: date.description) == date, "\(date.dayNumber) does not round-trip as \(date)")
        check(date.month.firstDay <= date && date <= date.month.lastDay, "\(date) is outside its month")
    case 2:
        // An amount from text: no crash; a parsed amount formats and parses back to itself.
        for currency in currencies {
            guard let money = try? Money(parsing: text, currency: currency) else { continue }
            let again = try? Money(parsing: money.decimalString, currency: currency)
            check(again == money, "\(text.debugDescription) in \(currency) parsed as \(money.minorUnits), which does not round-trip")
        }
    default:
        // Any 64-bit amount formats as a decimal that parses back to the same minor units.
        var raw: UInt64 = 0
        for (offset, byte) in bytes.prefix(8).enumerated() { raw |= UInt64(byte) << (8 * offset) }
        let minorUnits = Int64(bitPattern: raw)
        for currency in currencies {
            let money = Money(minorUnits: minorUnits, currency: currency)
            let parsed = try? Money(parsing: money.decimalString, currency: currency)
            check(parsed == money, "\(minorUnits) \(currency) formats as \(money.decimalString), which parses as \(String(describing: parsed?.minorUnits))")
        }
    }
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
