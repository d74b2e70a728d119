#include "ui/workers/TranslationWorker.h"
#include "ui/workers/WorkerCall.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <QElapsedTimer>
#include <sstream>

TranslationWorker::TranslationWorker(QObject* parent) : QObject(parent) {}

void TranslationWorker::registerTypes() {
    qRegisterMetaType<TranslateRequest>();
    qRegisterMetaType<TranslateResult>();
    qRegisterMetaType<BatchTranslateRequest>();
    qRegisterMetaType<BatchTranslateResult>();
    qRegisterMetaType<UiToken>();
}

void TranslationWorker::open(const QString& run, const QString& checkpoint) {
    if (run.isEmpty())
        throw twb::InputError(
            tr("no run chosen; train an encoder-decoder run first or open a run folder").toStdString());
    // Reloaded only for another checkpoint, or weights replaced in place (Translator::open).
    m_translator.open(run.toStdString(), checkpoint.isEmpty() ? "best" : checkpoint.toStdString());
}

void TranslationWorker::translate(const TranslateRequest& r) {
    guarded(this, r.id, [&] {
        open(r.run, r.checkpoint);
        auto cb = [&](const twb::TranslationToken& e) {
            UiToken t;
            t.id = e.token;
            t.text = std2q(e.text);
            t.prob = e.prob;
            for (const auto& a : e.alternatives) {
                t.altIds << a.token;
                t.altTexts << std2q(a.token_text);
                t.altProbs << a.prob;
            }
            emit token(r.id, t);
            return !(r.cancel && *r.cancel);
        };
        const auto res =
            m_translator.translate_stream(r.source.toStdString(), r.options, cb, r.alternatives, r.cancel.get());
        TranslateResult out;
        out.id = r.id;
        out.text = std2q(res.text);
        out.step = res.step;
        out.sourceTokens = static_cast<int>(res.source_ids.size());
        out.tokens = static_cast<int>(res.ids.size());
        out.beamWidth = r.options.beam_width;
        out.seconds = res.seconds;
        out.cancelled = res.cancelled;
        out.atLimit = res.at_limit;
        emit translated(out);
    });
}

void TranslationWorker::translateFile(const BatchTranslateRequest& r) {
    guarded(this, r.id, [&] {
        if (r.input.isEmpty())
            throw twb::InputError(tr("no input file: choose a file with one source sentence per line").toStdString());
        if (r.output.isEmpty())
            throw twb::InputError(tr("no output file: choose where the translations are written").toStdString());
        QElapsedTimer clock;
        clock.start();
        const auto sources = twb::read_lines(r.input.toStdString());
        if (sources.empty())
            throw twb::InputError(r.input.toStdString() + " is empty; give one source sentence per line");
        std::vector<std::string> refs;
        if (!r.reference.isEmpty()) {
            refs = twb::read_lines(r.reference.toStdString());
            if (refs.size() != sources.size())
                throw twb::InputError(r.reference.toStdString() + " has " + std::to_string(refs.size()) +
                                      " lines but " + r.input.toStdString() + " has " + std::to_string(sources.size()) +
                                      "; the reference must have one line per source line");
        }
        open(r.run, r.checkpoint);
        BatchTranslateResult out;
        out.id = r.id;
        out.step = m_translator.step();
        out.output = r.output;
        out.lines = static_cast<qint64>(sources.size());
        emit batchProgress(r.id, 0, out.lines);
        std::vector<std::string> hyps;
        try {
            hyps = m_translator.translate(sources, r.options, [&](size_t done, size_t total) {
                emit batchProgress(r.id, static_cast<qint64>(done), static_cast<qint64>(total));
                return !(r.cancel && *r.cancel);
            });
        } catch (const twb::Cancelled&) {
            out.cancelled = true;
        }
        if (!out.cancelled) {
            const auto cut = m_translator.cropped_lines();
            out.cropped = static_cast<qint64>(cut.size());
            out.firstCropped = cut.empty() ? 0 : static_cast<qint64>(cut.front());
            out.maxSourceTokens = m_translator.max_source_tokens();
            const auto limited = m_translator.limited_lines();
            out.limited = static_cast<qint64>(limited.size());
            out.firstLimited = limited.empty() ? 0 : static_cast<qint64>(limited.front());
            std::string text;
            for (const auto& h : hyps)
                text += h + "\n";
            twb::write_file_atomic(r.output.toStdString(), text);  // a temporary renamed at the end
            if (!refs.empty()) {
                out.scored = true;
                out.bleu = twb::corpus_bleu(hyps, refs);
                out.chrf = twb::corpus_chrf(hyps, refs);
            }
            for (size_t i = 0; i < hyps.size() && static_cast<int>(i) < r.previewRows; ++i)
                out.rows.append(
                    QStringList{std2q(sources[i]), std2q(hyps[i]), refs.empty() ? QString() : std2q(refs[i])});
        }
        out.seconds = static_cast<double>(clock.elapsed()) / 1000.0;
        emit batchFinished(out);
    });
}
