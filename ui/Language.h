// The interface's language: English (the source texts) or Norwegian Bokmål (resources/translations/
// workbench_nb.ts, built into the library as :/i18n/workbench_nb.qm). The choice is kept in QSettings
// ("language": system, en or nb); "system" follows the system locale's UI languages (nb, no and nn ->
// Bokmål; C, POSIX, en and everything else -> English). It takes effect when install() runs, at start-up:
// the panels are not rebuilt live. Engine messages shown in the interface stay English.
#pragma once
#include <QLocale>
#include <QString>

class QCoreApplication;

class Language {
public:
    enum class Choice { System, English, Bokmal };

    /// The saved choice (QSettings "language"); System when unset or unknown.
    static Choice saved();
    static void save(Choice c);
    /// "system", "en" or "nb": the settings' spelling.
    static QString key(Choice c);
    /// The language code the interface uses for a choice under a system locale: "en" or "nb".
    static QString resolve(Choice c, const QLocale& system = QLocale::system());
    /// Loads the translators for `code` ("nb") into the application: the workbench's and Qt's own
    /// (qtbase_nb.qm from QLibraryInfo's translations folder, where the system has one). "en" installs
    /// nothing. Numbers follow: QLocale's default becomes numberLocale(code). Returns false when the
    /// workbench's translation could not be loaded.
    static bool install(QCoreApplication* app, const QString& code);
    /// The locale numbers are written in (thousands and decimal separators, spin boxes): Bokmål's ("1 344",
    /// "0,5") for the Bokmål interface on a system of another language, else the system's.
    static QLocale numberLocale(const QString& code, const QLocale& system = QLocale::system());
    /// A text of the interface in language `code` whatever is installed now (a message about switching,
    /// said in both); the source text for "en" or when there is no translation.
    static QString translated(const QString& code, const char* context, const char* source);
    /// The saved choice's language, installed; what the GUI's main() calls.
    static QString installSaved(QCoreApplication* app);
};
