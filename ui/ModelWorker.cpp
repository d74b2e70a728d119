#include "ui/ModelWorker.h"

#include "engine/data/errors.h"
#include "engine/data/prepare.h"
#include "engine/run_files.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSaveFile>

namespace {
template <class F>
void guarded(ModelWorker* w, F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        emit w->failed(QString::fromStdString(e.what()));
    }
}

QString std2q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QJsonObject options_json(const twb::nn::SamplingOptions& o) {
    return QJsonObject{{"temperature", o.temperature},
                       {"top_k", o.top_k},
                       {"top_p", o.top_p},
                       {"max_new_tokens", o.max_new_tokens},
                       {"repetition_penalty", o.repetition_penalty},
                       {"beam_width", o.beam_width},
                       {"seed", static_cast<qint64>(o.seed)},
                       {"num_samples", o.num_samples},
                       {"kv_cache", o.use_kv_cache}};
}
}  // namespace

ModelWorker::ModelWorker(QObject* parent) : QObject(parent) {}

void ModelWorker::registerTypes() {
    qRegisterMetaType<UiToken>();
    qRegisterMetaType<GenerateRequest>();
    qRegisterMetaType<GenerateResult>();
    qRegisterMetaType<CompareRequest>();
    qRegisterMetaType<AttentionRequest>();
    qRegisterMetaType<twb::nn::AttentionCapture>();
    qRegisterMetaType<twb::nn::HeadScores>();
    qRegisterMetaType<std::vector<twb::nn::HeadScores>>();
    qRegisterMetaType<twb::nn::PositionTable>();
    qRegisterMetaType<twb::ProbeTimeline>();
}

void ModelWorker::open(const QString& run, const QString& checkpoint) {
    if (run.isEmpty())
        throw twb::InputError("no run chosen; train one first or open a run folder");
    m_session.open(run.toStdString(), checkpoint.isEmpty() ? "best" : checkpoint.toStdString());
}

void ModelWorker::generate(const GenerateRequest& r) {
    guarded(this, [&] {
        open(r.run, r.checkpoint);
        GenerateResult out;
        out.id = r.id;
        out.promptIds = r.ids.empty() ? m_session.encode(r.prompt.toStdString()) : r.ids;
        out.promptText = r.prompt;
        out.step = m_session.step();
        auto cb = [&](const twb::nn::TokenEvent& e) {
            UiToken t;
            t.sample = e.sample;
            t.id = e.token;
            t.text = std2q(e.text);
            t.prob = e.prob;
            for (const auto& [id, p] : e.alternatives) {
                t.altIds << id;
                t.altTexts << std2q(m_session.token_text(id));
                t.altProbs << p;
            }
            emit token(r.id, t);
        };
        const auto res = m_session.generate(out.promptIds, r.options, cb, r.cancel.get());
        for (const auto& s : res.texts)
            out.texts << std2q(s);
        for (const auto& w : res.warnings)
            out.warnings << std2q(w);
        out.tokensPerS = res.tokens_per_s;
        out.seconds = res.seconds;
        out.generated = res.generated;
        out.cancelled = res.cancelled;
        if (r.record) {
            QJsonObject e{{"time", QDateTime::currentDateTime().toString(Qt::ISODate)},
                          {"checkpoint_step", static_cast<qint64>(out.step)},
                          {"prompt", r.ids.empty() ? r.prompt : std2q(m_session.decode(r.ids))},
                          {"options", options_json(r.options)},
                          {"outputs", QJsonArray::fromStringList(out.texts)},
                          {"cancelled", out.cancelled}};
            if (!r.note.isEmpty())
                e["note"] = r.note;
            appendHistory(r.run, e);
        }
        emit generated(out);
    });
}

void ModelWorker::compare(const CompareRequest& r) {
    guarded(this, [&] {
        bool cancelled = false;
        for (int c = 0; c < r.columns.size() && !cancelled; ++c) {
            open(r.columns[c].first, r.columns[c].second);
            // Columns of the panel's own run say just the step; other runs add their name.
            const QString header =
                r.columns[c].first == r.baseRun
                    ? tr("step %1").arg(m_session.step())
                    : tr("%1 · step %2").arg(QFileInfo(r.columns[c].first).fileName()).arg(m_session.step());
            const auto ids = m_session.encode(r.prompt.toStdString());
            for (int row = 0; row < r.temperatures.size(); ++row) {
                auto o = r.options;
                o.temperature = r.temperatures[row];
                o.num_samples = 1;
                const auto res = m_session.generate(ids, o, {}, r.cancel.get());
                if (res.cancelled) {
                    cancelled = true;
                    break;
                }
                emit compareCell(row, c, header, std2q(res.texts.front()));
            }
        }
        emit compareFinished(cancelled);
    });
}

void ModelWorker::capture(const AttentionRequest& r) {
    guarded(this, [&] {
        open(r.run, r.checkpoint);
        const auto cap = m_session.attention(r.text.toStdString());
        emit captured(cap, twb::nn::head_scores(cap), m_session.step());
    });
}

void ModelWorker::loadPositions(const QString& run, const QString& checkpoint) {
    guarded(this, [&] {
        open(run, checkpoint);
        emit positionsLoaded(m_session.positions());
    });
}

void ModelWorker::loadProbe(const QString& run) {
    guarded(this, [&] {
        const auto t = twb::read_probe(run.toStdString());
        std::vector<twb::nn::HeadScores> scores;
        for (size_t i = 0; i < t.steps.size(); ++i)
            scores.push_back(twb::nn::head_scores(t.at(i)));
        emit probeLoaded(run, t, scores);
    });
}

void ModelWorker::loadHistory(const QString& run) {
    guarded(this, [&] { emit historyLoaded(run, readHistory(run)); });
}

QJsonArray ModelWorker::readHistory(const QString& run) {
    QJsonArray out;
    QFile f(run + "/samples.jsonl");
    if (!f.open(QIODevice::ReadOnly))
        return out;
    while (!f.atEnd()) {
        const auto doc = QJsonDocument::fromJson(f.readLine());
        if (doc.isObject())
            out.append(doc.object());
    }
    return out;
}

void ModelWorker::appendHistory(const QString& run, const QJsonObject& entry) {
    QByteArray old;
    {
        QFile f(run + "/samples.jsonl");
        if (f.open(QIODevice::ReadOnly))
            old = f.readAll();
    }
    QSaveFile out(run + "/samples.jsonl");  // temp file renamed on commit: never a half-written history
    if (!out.open(QIODevice::WriteOnly))
        throw twb::IoError("cannot write " + (run + "/samples.jsonl").toStdString());
    out.write(old);
    out.write(QJsonDocument(entry).toJson(QJsonDocument::Compact) + "\n");
    if (!out.commit())
        throw twb::IoError("cannot write " + (run + "/samples.jsonl").toStdString());
}

void ModelWorker::pickValidationText(const QString& run) {
    guarded(this, [&] {
        const auto cfg = twb::read_run_config(run.toStdString());
        const auto data = twb::open_prepared(cfg.data_dir);
        const bool val = data.val_tokens > 1;
        twb::TokenFile f(data.dir / (val ? "val.bin" : "train.bin"), data.dtype);
        const auto tok = twb::load_tokenizer(std::filesystem::exists(run.toStdString() + "/tokenizer/tokenizer.json")
                                                 ? std::filesystem::path(run.toStdString()) / "tokenizer"
                                                 : data.dir);
        const uint64_t n = std::min<uint64_t>(f.size(), static_cast<uint64_t>(std::min<int64_t>(cfg.block_size, 128)));
        const uint64_t start =
            f.size() > n ? QRandomGenerator::global()->bounded(static_cast<quint64>(f.size() - n)) : 0;
        std::vector<int32_t> ids;
        for (uint64_t i = start; i < start + n; ++i)
            ids.push_back(f.at(i));
        emit validationText(std2q(tok->decode(ids)));
    });
}
