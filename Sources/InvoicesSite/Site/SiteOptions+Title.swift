internal import InvoicesCore

extension SiteOptions {
    /// The title the pages carry: ``title`` as set, or with ``titleFollowsLanguage`` the `layout.defaultTitle` of
    /// `translation` (the report's language: "Invoices report", "Rechnungsbericht").
    func pageTitle(in translation: Translation) -> String {
        titleFollowsLanguage ? translation.text("layout.defaultTitle") : title
    }

    /// The title the pages of a build with the templates folder `templates` (nil: the built-in templates) carry,
    /// before the templates are loaded: a title that is not set is the report language's `layout.defaultTitle`, a
    /// key the folder's `i18n/` may override (what `build --verbose` names). A folder whose tables do not load
    /// keeps the shipped words here; the build refuses it.
    public func pageTitle(templates: String?) -> String {
        guard titleFollowsLanguage else { return title }
        let tables = TranslationTables.load(directory: templates).0
        return pageTitle(in: tables.translation(for: LanguageTag(language) ?? .english))
    }
}
