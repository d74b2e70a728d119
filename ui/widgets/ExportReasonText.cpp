#include "ui/widgets/ExportReasonText.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace {
QString said(const char* english) {
    return QCoreApplication::translate("ExportReason", english);
}

/// The whys that the engine always words the same (GPT-2 is Hugging Face's, gpt2 llama.cpp's architecture).
const char* const kFixed[] = {
    QT_TRANSLATE_NOOP("ExportReason", "GPT-2 has learned positions (position=learned)"),
    QT_TRANSLATE_NOOP("ExportReason", "GPT-2 uses LayerNorm (norm=layernorm)"),
    QT_TRANSLATE_NOOP("ExportReason", "GPT-2 normalises before each sublayer (pre)"),
    QT_TRANSLATE_NOOP("ExportReason", "GPT-2's layers and norms all have biases (bias=true)"),
    QT_TRANSLATE_NOOP("ExportReason", "GPT-2 has no norm of the queries and keys (qk_norm=false)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian is an encoder-decoder (model_kind=encoder_decoder)"),
    QT_TRANSLATE_NOOP("ExportReason",
                      "Marian has fixed sinusoids in halves (position=sinusoidal, sinusoid_halves=true)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian uses LayerNorm (norm=layernorm)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian normalises after each sublayer (post)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian's LayerNorms have epsilon 1e-5"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian's layers and norms all have biases (bias=true)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian has no norm of the queries and keys (qk_norm=false)"),
    QT_TRANSLATE_NOOP("ExportReason", "the export writes one vocabulary shared by both sides (source_vocab_size=0)"),
    QT_TRANSLATE_NOOP("ExportReason", "Marian's heads are d_model / heads wide"),
    QT_TRANSLATE_NOOP("ExportReason",
                      "llama.cpp's gpt2 architecture has learned positions only (train with position=learned)"),
    QT_TRANSLATE_NOOP("ExportReason", "gpt2 uses LayerNorm (train with norm=layernorm)"),
    QT_TRANSLATE_NOOP("ExportReason", "gpt2 normalises before each sublayer (train with norm_position=pre)"),
    QT_TRANSLATE_NOOP("ExportReason", "gpt2 has biases in every linear layer and norm (train with bias=true)"),
    QT_TRANSLATE_NOOP("ExportReason",
                      "llama.cpp's gpt2 architecture has no norm of the queries and keys (train with "
                      "qk_norm=false)"),
    QT_TRANSLATE_NOOP("ExportReason", "gpt2 uses GELU's tanh approximation (train with activation=gelu_tanh)"),
    QT_TRANSLATE_NOOP("ExportReason",
                      "llama.cpp's gpt2 architecture reads a byte-level BPE vocabulary only (prepare "
                      "the data with --tokenizer bytebpe and train again)"),
    QT_TRANSLATE_NOOP("ExportReason", "llama.cpp knows GPT-2's and GPT-4's patterns only"),
};

/// One "SETTING: why" in the interface's language.
QString part(const QString& text) {
    const qsizetype colon = text.indexOf(QLatin1String(": "));
    if (colon < 0)
        return text;
    QString setting = text.left(colon);
    const QString why = text.mid(colon + 2);
    static const QRegularExpression pattern("^split pattern '(.*)'$");
    if (const auto m = pattern.match(setting); m.hasMatch())
        setting = said(QT_TRANSLATE_NOOP("ExportReason", "split pattern '%1'")).arg(m.captured(1));
    for (const char* english : kFixed)
        if (why == QLatin1String(english))
            return setting + ": " + said(english);
    static const QRegularExpression gpt2Heads("^GPT-2's heads are n_embd / n_head = (\\d+) wide$"),
        ggufHeads("^gpt2 needs n_head \\* head_size = n_embd \\((\\d+) \\* (\\d+) != (\\d+); leave head_size at 0\\)$");
    if (const auto m = gpt2Heads.match(why); m.hasMatch())
        return setting + ": " +
               said(QT_TRANSLATE_NOOP("ExportReason", "GPT-2's heads are n_embd / n_head = %1 wide"))
                   .arg(m.captured(1));
    if (const auto m = ggufHeads.match(why); m.hasMatch())
        return setting + ": " +
               said(QT_TRANSLATE_NOOP("ExportReason",
                                      "gpt2 needs n_head * head_size = n_embd (%1 * %2 != %3; leave head_size at 0)"))
                   .arg(m.captured(1), m.captured(2), m.captured(3));
    return setting + ": " + why;
}
}  // namespace

QString exportReasonText(const QString& engineText) {
    // "; " before the next setting joins the parts (one why holds "; leave head_size at 0" inside)
    static const QRegularExpression next("; (?=[a-z_]+=|split pattern ')");
    QStringList parts;
    for (const QString& p : engineText.split(next))
        parts << part(p);
    return parts.join(QLatin1String("; "));
}
