import ArgumentParser
import Foundation
import InvoicesCore
import InvoicesReport

extension ProjectOptions {
    /// Checks `--rates` and `--base-currency` go together and name an ISO 4217 code.
    func validateConversion() throws {
        switch (rates, baseCurrency) {
        case (nil, nil): return
        case (_?, nil): throw ValidationError("--rates needs --base-currency, the currency to convert into, e.g. EUR")
        case (nil, _?): throw ValidationError("--base-currency needs --rates, a CSV file of 'date,from,to,rate' lines")
        case (_, let code?):
            guard CurrencyCode.isKnown(code) else {
                throw ValidationError("--base-currency '\(code)' is not an ISO 4217 currency code (expected e.g. 'EUR')")
            }
        }
    }

    /// Reads the rates file, or nil without `--rates`.
    /// - Throws: ``CommandError``: 66 when the file is missing or cannot be read, 65 when it is not a regular file, is
    ///   past ``InvoicesCore/FileBudget/rates`` or a line is wrong.
    func loadConversion() throws(CommandError) -> CurrencyConversion? {
        guard let rates, let baseCurrency else { return nil }
        let text: String
        do throws(RegularFile.Failure) {
            text = try RegularFile.text(rates, budget: .rates)
        } catch {
            throw CommandError(code: error.exitStatus, message: "\(error); check --rates")
        }
        do {
            return CurrencyConversion(base: try CurrencyCode(baseCurrency), rates: try ExchangeRates(csv: text, path: rates))
        } catch {
            throw CommandError(code: .dataError, message: "\(error)")
        }
    }
}
