#include "ui/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

namespace {
bool readsBokmal(const QString& uiLanguage) {
    // Bokmål, "Norwegian" without a written form, and Nynorsk, whose readers read Bokmål.
    const QString lang = uiLanguage.section('-', 0, 0).section('_', 0, 0).toLower();
    return lang == "nb" || lang == "no" || lang == "nn";
}
}  // namespace

Language::Choice Language::saved() {
    const QString v = QSettings().value("language", "system").toString();
    return v == "nb" ? Choice::Bokmal : v == "en" ? Choice::English : Choice::System;
}

void Language::save(Choice c) {
    QSettings().setValue("language", key(c));
}

QString Language::key(Choice c) {
    switch (c) {
        case Choice::English:
            return "en";
        case Choice::Bokmal:
            return "nb";
        case Choice::System:
            break;
    }
    return "system";
}

QString Language::resolve(Choice c, const QLocale& system) {
    if (c != Choice::System)
        return key(c);
    // The first of the user's UI languages that the interface has decides (LANGUAGE=nn:nb -> nb, en_GB -> en).
    for (const QString& l : system.uiLanguages()) {
        if (readsBokmal(l))
            return "nb";
        if (l.startsWith("en") || l == "C")
            return "en";
    }
    return "en";
}

QLocale Language::numberLocale(const QString& code, const QLocale& system) {
    if (code == "nb" && !readsBokmal(system.name()))
        return QLocale(QLocale::NorwegianBokmal, QLocale::Norway);
    return system;
}

bool Language::install(QCoreApplication* app, const QString& code) {
    QLocale::setDefault(numberLocale(code));  // "1,344" read as 1.344 in a Bokmål sentence
    if (code == "en")
        return true;
    auto* own = new QTranslator(app);
    if (!own->load(":/i18n/workbench_" + code + ".qm")) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    // Qt's own texts (standard dialogs' buttons, the file dialog), where the system has them; the
    // workbench's file also carries the standard buttons' Bokmål (QPlatformTheme), which Debian lacks.
    auto* qt = new QTranslator(app);
    if (qt->load("qtbase_" + code, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

QString Language::translated(const QString& code, const char* context, const char* source) {
    QTranslator t;
    if (code == "en" || !t.load(":/i18n/workbench_" + code + ".qm"))
        return QString::fromUtf8(source);
    const QString r = t.translate(context, source);
    return r.isEmpty() ? QString::fromUtf8(source) : r;
}

QString Language::installSaved(QCoreApplication* app) {
    const QString code = resolve(saved());
    return install(app, code) ? code : QString("en");
}
