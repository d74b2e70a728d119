#include "ui/training/ConfigProblemText.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <functional>
#include <vector>

namespace {
/// A number the engine wrote ("0.0003", "-0.0", "10") as the interface writes numbers.
QString number(const QString& s) {
    bool ok = false;
    const double v = QLocale::c().toDouble(s, &ok);
    return ok ? QLocale().toString(v, 'g', 12) : s;
}

/// One bound of a range ("positive", "above 0", "at most 10") in the interface's language.
QString bound(const QString& part) {
    static const QRegularExpression above("^above (\\S+)$"), least("^at least (\\S+)$"), below("^below (\\S+)$"),
        most("^at most (\\S+)$");
    if (part == "positive")
        return QCoreApplication::translate("ConfigForm", "positive");
    if (const auto m = above.match(part); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "above %1").arg(number(m.captured(1)));
    if (const auto m = least.match(part); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "at least %1").arg(number(m.captured(1)));
    if (const auto m = below.match(part); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "below %1").arg(number(m.captured(1)));
    if (const auto m = most.match(part); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "at most %1").arg(number(m.captured(1)));
    return part;
}

/// The range a value must lie in, as twb::ConfigOption::range_text words it.
QString range(const QString& text) {
    static const QRegularExpression zeroBetween("^between 0 \\((.+)\\) and (\\S+)$"),
        zeroOrPositive("^0 \\((.+)\\) or positive$"), between("^between (\\S+) and (\\S+)$");
    const auto zero = [](const QString& word) {  // what 0 stands for, as the form's field shows it at 0
        return QCoreApplication::translate("ConfigOptions", word.toUtf8().constData());
    };
    if (const auto m = zeroBetween.match(text); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "between 0 (%1) and %2")
            .arg(zero(m.captured(1)), number(m.captured(2)));
    if (const auto m = zeroOrPositive.match(text); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "0 (%1) or positive").arg(zero(m.captured(1)));
    if (const auto m = between.match(text); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "between %1 and %2")
            .arg(number(m.captured(1)), number(m.captured(2)));
    QStringList parts;
    for (const QString& part : text.split(" and "))
        parts << bound(part);
    return parts.join(QCoreApplication::translate("ConfigForm", " and "));
}

/// What a key takes, as the config reader words it ("a whole number", "one of cosine, constant").
QString kindOfValue(const QString& want) {
    static const char* const kinds[] = {
        QT_TRANSLATE_NOOP("ConfigForm", "a whole number"),
        QT_TRANSLATE_NOOP("ConfigForm", "a whole number of at least 0"), QT_TRANSLATE_NOOP("ConfigForm", "a number"),
        QT_TRANSLATE_NOOP("ConfigForm", "true or false"), QT_TRANSLATE_NOOP("ConfigForm", "a string")};
    for (const char* k : kinds)
        if (want == QLatin1String(k))
            return QCoreApplication::translate("ConfigForm", k);
    if (want.startsWith("one of "))
        return QCoreApplication::translate("ConfigForm", "one of %1").arg(want.mid(7));
    static const QRegularExpression between("^a whole number between (-?\\d+) and (-?\\d+)$");
    if (const auto m = between.match(want); m.hasMatch())
        return QCoreApplication::translate("ConfigForm", "a whole number between %1 and %2")
            .arg(number(m.captured(1)), number(m.captured(2)));
    return want;
}

struct Pattern {
    QRegularExpression english;
    std::function<QString(const QRegularExpressionMatch&)> said;
};

/// A sentence the engine always words the same, around at most one key or value (%1, kept as written): matched
/// whole, said as the catalogue says it.
Pattern fixed(const char* english) {
    QString re = QRegularExpression::escape(QLatin1String(english));
    re.replace(QLatin1String("\\%1"), QLatin1String("(.+?)"));
    return {QRegularExpression("^" + re + "$"), [english](const QRegularExpressionMatch& m) {
                const QString said = QCoreApplication::translate("ConfigForm", english);
                return m.lastCapturedIndex() >= 1 ? said.arg(m.captured(1)) : said;
            }};
}

const std::vector<Pattern>& patterns() {
    static const std::vector<Pattern> all = {
        // before "KEY must be RANGE (got X)", which it would match
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "device must be auto, cpu, cuda or cuda:N with N a device number (got '%1')")),
        // a choice's spellings ("device must be auto, cpu or cuda (got 'gpu')"), before "KEY must be RANGE (got X)"
        {QRegularExpression("^(\\w+) must be ((?:[\\w:]+, )*[\\w:]+) or ([\\w:]+) \\(got '(.*)'\\)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "%1 must be %2 or %3 (got '%4')")
                 .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4));
         }},
        {QRegularExpression("^(\\w+) (-?\\d+) must be divisible by (\\w+) (-?\\d+) \\(or set (\\w+) to choose the "
                            "head width\\)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm",
                                                "%1 %2 must be divisible by %3 %4 (or set %5 to choose the head width)")
                 .arg(m.captured(1), number(m.captured(2)), m.captured(3), number(m.captured(4)), m.captured(5));
         }},
        {QRegularExpression("^(\\w+) \\((-?\\d+)\\) must be larger than (\\w+) \\((-?\\d+)\\)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "%1 (%2) must be larger than %3 (%4)")
                 .arg(m.captured(1), number(m.captured(2)), m.captured(3), number(m.captured(4)));
         }},
        {QRegularExpression("^(\\w+) must be between 0 and (\\w+)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "%1 must be between 0 and %2")
                 .arg(m.captured(1), m.captured(2));
         }},
        {QRegularExpression("^(\\w+) must be (.+) \\(got (\\S+)\\)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "%1 must be %2 (got %3)")
                 .arg(m.captured(1), range(m.captured(2)), number(m.captured(3)));
         }},
        {QRegularExpression("^the attention width n_head \\* head_size = (\\d+) \\* (\\d+) = (\\d+) must be at most "
                            "(\\d+)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate(
                        "ConfigForm", "the attention width n_head * head_size = %1 * %2 = %3 must be at most %4")
                 .arg(number(m.captured(1)), number(m.captured(2)), number(m.captured(3)), number(m.captured(4)));
         }},
        {QRegularExpression("^rotary positions rotate pairs of channels, so they need an even head size \\((.+) = "
                            "(\\d+)\\)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate(
                        "ConfigForm",
                        "rotary positions rotate pairs of channels, so they need an even head size (%1 = %2)")
                 .arg(m.captured(1), m.captured(2));
         }},
        {QRegularExpression("^(\\w+) needs (\\w+) of at least 1$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "the schedule %1 needs %2 of at least 1")
                 .arg(QCoreApplication::translate("ConfigChoices", m.captured(1).toUtf8().constData()), m.captured(2));
         }},
        // a sweep's cell ("sweep cell 002 (n_head=5) is not a valid config: ..."): the reason said as the form says it
        {QRegularExpression("^sweep cell (\\d+) \\((.*)\\) is not a valid config: (.*)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "sweep cell %1 (%2) is not a valid config: %3")
                 .arg(m.captured(1), m.captured(2), configProblemText(m.captured(3)));
         }},
        {QRegularExpression("^(\\w+) takes (.+), not (.*)$"),
         [](const QRegularExpressionMatch& m) {
             return QCoreApplication::translate("ConfigForm", "%1 takes %2, not %3")
                 .arg(m.captured(1), kindOfValue(m.captured(2)), m.captured(3));
         }},
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "%1 is for decoder LMs (model_kind=decoder); this run is an "
                                "encoder-decoder, which does not use it")),
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "%1 is for encoder-decoder runs (model_kind=encoder_decoder); this run "
                                "is a decoder LM, which does not use it")),
        // The fixed sentences of checks that join two keys (the key names stay: the form puts its labels in)
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "best_by=bleu needs model_kind=encoder_decoder (a decoder LM has no BLEU)")),
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "best_by=bleu needs bleu_pairs > 0 (the validation pairs BLEU is measured on)")),
        fixed(QT_TRANSLATE_NOOP("ConfigForm", "model_kind=encoder_decoder trains on pairs; leave sequences at stream")),
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "probe_prompt holds at most 4096 bytes (the probe uses its first 64 tokens)")),
        fixed(QT_TRANSLATE_NOOP("ConfigForm",
                                "source_vocab_size is for encoder-decoder runs (model_kind=encoder_decoder)")),
    };
    return all;
}
}  // namespace

QString configProblemText(const QString& engineText) {
    // In English the engine's own words, as twb prints them (its numbers as it writes them, too)
    // (QCoreApplication::translate spelled out in this file: lupdate does not read a free function named tr.)
    static const char* probe = "%1 must be between 0 and %2";
    if (QCoreApplication::translate("ConfigForm", probe) == QLatin1String(probe))
        return engineText;
    for (const auto& p : patterns())
        if (const auto m = p.english.match(engineText); m.hasMatch())
            return p.said(m);
    return engineText;
}
