#include "ui/widgets/ExportFormats.h"

#include "twb/errors.h"
#include "twb/gguf_export.h"
#include "twb/model_exchange.h"
#include "twb/run_folder.h"

namespace {

QString std2q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

ExportFormat gguf(bool f16) {
    ExportFormat f;
    f.id = f16 ? "gguf-f16" : "gguf-f32";
    f.label = f16 ? QT_TRANSLATE_NOOP("QObject", "GGUF (llama.cpp, gpt2), f16 matrices")
                  : QT_TRANSLATE_NOOP("QObject", "GGUF (llama.cpp, gpt2), f32");
    f.suffix = "gguf";
    f.blocker = [](const std::string& run, const std::string& ck) { return twb::gguf_run_blocker(run, ck); };
    f.write = [f16](const std::string& run, const std::string& ck, const std::string& out) {
        twb::GgufOptions o;
        o.f16 = f16;
        const auto r = twb::export_gguf(run, ck, out, o);
        return QObject::tr("GGUF v3, step %1, %2 tensors, %3 tokens, %4 MB")
            .arg(r.step)
            .arg(r.tensors)
            .arg(r.vocab)
            .arg(static_cast<double>(r.bytes) / 1e6, 0, 'f', 1)
            .toStdString();
    };
    return f;
}

/// A folder format of twb/model_exchange.h: the Hugging Face GPT-2 layout, or the plain safetensors export.
ExportFormat folder(bool hf) {
    ExportFormat f;
    f.id = hf ? "hf" : "safetensors";
    // A translation run's Hugging Face layout is Marian's (export_hf), and so is its reason when blocked.
    f.label = hf ? QT_TRANSLATE_NOOP("QObject", "Hugging Face folder for transformers (GPT-2; Marian for translation)")
                 : QT_TRANSLATE_NOOP("QObject", "safetensors + config.json (any architecture)");
    f.blocker = [hf](const std::string& run, const std::string&) {
        return hf ? twb::hf_export_blocker(twb::read_run_config(run)) : std::string();
    };
    f.write = [hf](const std::string& run, const std::string& ck, const std::string& out) {
        const auto r = hf ? twb::export_hf(run, out, ck) : twb::export_safetensors(run, out, ck);
        std::string files;
        for (const auto& name : r.files)
            files += (files.empty() ? "" : ", ") + name;
        return QObject::tr("%1: %2%3")
            .arg(QString::fromStdString(r.checkpoint), QString::fromStdString(files),
                 r.note.empty() ? QString() : QStringLiteral(" (") + QString::fromStdString(r.note) + ")")
            .toStdString();
    };
    return f;
}

}  // namespace

const QVector<ExportFormat>& exportFormats() {
    static const QVector<ExportFormat> formats = {gguf(false), gguf(true), folder(true), folder(false)};
    return formats;
}

QStringList exportBlockers(const QString& run, const QString& checkpoint) {
    QStringList reasons;
    for (const auto& f : exportFormats())
        reasons << std2q(f.blocker(run.toStdString(), checkpoint.toStdString()));
    return reasons;
}

QString exportRun(int format, const QString& run, const QString& checkpoint, const QString& out) {
    if (format < 0 || format >= exportFormats().size())
        throw twb::InputError("no such export format");
    return std2q(exportFormats()[format].write(run.toStdString(), checkpoint.toStdString(), out.toStdString()));
}
