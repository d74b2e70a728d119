#include "ui/workers/ModelWorker.h"
#include "ui/workers/WorkerCall.h"

#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/tokenizer.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <cmath>

ModelWorker::ModelWorker(QObject* parent) : QObject(parent) {}

void ModelWorker::registerTypes() {
    qRegisterMetaType<UiToken>();
    qRegisterMetaType<GenerateRequest>();
    qRegisterMetaType<GenerateResult>();
    qRegisterMetaType<CompareRequest>();
    qRegisterMetaType<ChatRequest>();
    qRegisterMetaType<ChatResult>();
    qRegisterMetaType<twb::ChatThread>();
    qRegisterMetaType<AttentionRequest>();
    qRegisterMetaType<GenerationEvalRequest>();
    qRegisterMetaType<std::vector<twb::GenerationEvalRow>>();
    qRegisterMetaType<CaptureResult>();
    qRegisterMetaType<twb::AttentionCapture>();
    qRegisterMetaType<twb::HeadScores>();
    qRegisterMetaType<std::vector<twb::HeadScores>>();
    qRegisterMetaType<twb::PositionTable>();
    qRegisterMetaType<twb::ProbeTimeline>();
    qRegisterMetaType<std::vector<twb::SampleRecord>>();
    qRegisterMetaType<twb::NeighbourResult>();
    qRegisterMetaType<twb::SimilarityResult>();
    qRegisterMetaType<twb::EmbeddingMap>();
}

void ModelWorker::open(const QString& run, const QString& checkpoint) {
    if (run.isEmpty())
        throw twb::InputError(tr("no run chosen; train one first or open a run folder").toStdString());
    m_session.open(run.toStdString(), checkpoint.isEmpty() ? "best" : checkpoint.toStdString());
}

void ModelWorker::generate(const GenerateRequest& r) {
    guarded(this, r.id, [&] {
        open(r.run, r.checkpoint);
        GenerateResult out;
        out.id = r.id;
        out.promptIds = r.ids.empty() ? m_session.encode(r.prompt.toStdString()) : r.ids;
        out.promptText = r.prompt;
        out.step = m_session.step();
        auto cb = [&](const twb::TokenEvent& e) {
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
            twb::SampleRecord rec;
            rec.source = "gui";
            rec.checkpoint_step = out.step;
            rec.prompt = r.ids.empty() ? r.prompt.toStdString() : m_session.decode(r.ids);
            rec.options = r.options;
            rec.outputs = res.texts;
            rec.cancelled = res.cancelled;
            rec.note = r.note.toStdString();
            twb::append_sample_history(r.run.toStdString(), rec);
        }
        emit generated(out);
    });
}

void ModelWorker::chat(const ChatRequest& r) {
    guarded(this, r.id, [&] {
        open(r.run, r.checkpoint);
        auto cb = [&](const twb::TokenEvent& e) {
            UiToken t;
            t.id = e.token;
            t.text = std2q(e.text);
            t.prob = e.prob;
            emit token(r.id, t);
        };
        const auto res = m_session.chat(r.messages, r.options, cb, r.cancel.get());
        ChatResult out;
        out.id = r.id;
        out.reply = res.texts.empty() ? QString() : std2q(res.texts[0]);
        out.step = m_session.step();
        out.generated = res.generated;
        out.tokensPerS = res.tokens_per_s;
        out.cancelled = res.cancelled;
        // The end-of-turn token is counted as generated but is no token of the reply.
        out.endOfTurn =
            !res.cancelled && !res.tokens.empty() && res.generated > static_cast<qint64>(res.tokens[0].size());
        for (const auto& w : res.warnings)
            out.warnings << std2q(w);
        if (r.record) {
            std::vector<twb::ChatTurn> turns;
            auto add = [&](const twb::ChatMessage& m) {
                twb::ChatTurn t;
                t.conversation = r.conversation;
                t.message = m;
                t.source = "gui";
                t.checkpoint_step = out.step;
                t.cancelled = m.role == twb::ChatRole::Assistant && res.cancelled;
                turns.push_back(t);
            };
            for (size_t i = r.recorded; i < r.messages.size(); ++i)
                add(r.messages[i]);
            add({twb::ChatRole::Assistant, res.texts.empty() ? std::string() : res.texts[0]});
            twb::append_chat_turns(r.run.toStdString(), turns);
        }
        emit chatReplied(out);
    });
}

void ModelWorker::loadChat(quint64 id, const QString& run, bool fresh) {
    guarded(this, id, [&] {
        twb::ChatThread t;
        if (fresh)
            t.conversation = twb::next_conversation(run.toStdString());
        else
            t = twb::latest_chat(run.toStdString());
        emit chatLoaded(id, run, t, QString::fromStdString(twb::chat_unavailable(run.toStdString())),
                        !twb::chat_untrained(run.toStdString()).empty());
    });
}

void ModelWorker::compare(const CompareRequest& r) {
    guarded(this, r.id, [&] {
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
                emit compareCell(r.id, row, c, header, std2q(res.texts.front()));
                if (!r.judgeRun.isEmpty())
                    judge(r, row, c, res.texts.front());
            }
        }
        emit compareFinished(r.id, cancelled);
    });
}

void ModelWorker::judge(const CompareRequest& r, int row, int column, const std::string& text) {
    try {
        m_judge.open(r.judgeRun.toStdString(), "best");
        const auto e = m_judge.score_continuation(r.prompt.toStdString(), text);
        emit compareJudged(r.id, row, column, e.perplexity, QString::fromStdString(e.precision), QString());
    } catch (const twb::Error& e) {  // this cell only: the others may still be scored
        emit compareJudged(r.id, row, column, std::nan(""), QString(), QString::fromStdString(e.what()));
    }
}

void ModelWorker::openTranslator(const QString& run, const QString& checkpoint) {
    // Reloaded only for another checkpoint (a new "last" while the run trains) or weights replaced in place.
    m_translator.open(run.toStdString(), checkpoint.isEmpty() ? "best" : checkpoint.toStdString());
}

void ModelWorker::capture(const AttentionRequest& r) {
    guarded(this, r.id, [&] {
        if (r.run.isEmpty())
            throw twb::InputError(tr("no run chosen; train one first or open a run folder").toStdString());
        if (twb::is_encoder_decoder_run(r.run.toStdString())) {
            openTranslator(r.run, r.checkpoint);
            CaptureResult out;
            out.id = r.id;
            out.translation = true;
            out.pair = m_translator.attention(r.text.toStdString(), r.target.toStdString());
            for (const auto* c : {&out.pair.encoder, &out.pair.decoder, &out.pair.cross})
                out.pairScores.push_back(twb::head_scores(*c));
            out.step = m_translator.step();
            out.checkpoint = QString::fromStdString(m_translator.checkpoint());
            emit captured(out);
            return;
        }
        if (!r.target.isEmpty())
            throw twb::InputError(
                tr("a target is for translation (encoder-decoder) runs; this run is a decoder LM").toStdString());
        open(r.run, r.checkpoint);
        CaptureResult out;
        out.id = r.id;
        out.capture = m_session.attention(r.text.toStdString());
        out.scores = twb::head_scores(out.capture);
        out.step = m_session.step();
        out.checkpoint = QString::fromStdString(m_session.checkpoint());
        for (const auto& top : out.capture.next_top)
            for (const auto& alternative : top)
                out.tokenTexts.emplace(alternative.first, m_session.token_text(alternative.first));
        emit captured(out);
    });
}

void ModelWorker::loadPositions(quint64 id, const QString& run, const QString& checkpoint) {
    guarded(this, id, [&] {
        if (twb::is_encoder_decoder_run(run.toStdString())) {  // ModelSession opens language models only
            openTranslator(run, checkpoint);
            emit positionsLoaded(id, m_translator.positions());
            return;
        }
        open(run, checkpoint);
        emit positionsLoaded(id, m_session.positions());
    });
}

void ModelWorker::loadProbe(quint64 id, const QString& run) {
    guarded(this, id, [&] {
        // A decoder LM's timeline, or an encoder-decoder's cross-attention one (probe/cross.*).
        auto t = twb::read_probe(run.toStdString());
        if (t.empty() && twb::has_cross_probe(run.toStdString()))
            t = twb::read_cross_probe(run.toStdString());
        std::vector<twb::HeadScores> scores;
        for (size_t i = 0; i < t.steps.size(); ++i)
            scores.push_back(twb::head_scores(t.at(i)));
        emit probeLoaded(id, run, t, scores);
    });
}

void ModelWorker::loadHistory(quint64 id, const QString& run) {
    guarded(this, id, [&] {
        emit historyLoaded(
            id, run, run.isEmpty() ? std::vector<twb::SampleRecord>{} : twb::read_sample_history(run.toStdString()));
    });
}

void ModelWorker::pickValidationText(quint64 id, const QString& run) {
    guarded(this, id, [&] {
        const auto cfg = twb::read_run_config(run.toStdString());
        const auto data = twb::open_prepared(cfg.data_dir);
        const bool val = data.val_tokens > 1;
        const uint64_t size = val ? data.val_tokens : data.train_tokens;
        const auto tokDir = QFileInfo::exists(run + "/tokenizer/tokenizer.json")
                                ? std::filesystem::path(run.toStdString()) / "tokenizer"
                                : data.dir;
        const auto tok = twb::TextTokenizer::load(tokDir);
        if (data.parallel) {  // a translation run: one validation pair's source sentence
            const auto pairs = twb::read_pairs(data, val ? "val" : "train");
            if (pairs.empty())
                throw twb::InputError(data.dir.string() + " holds no pair to take a source sentence from");
            const auto i = QRandomGenerator::global()->bounded(static_cast<quint64>(pairs.size()));
            // Separate vocabularies: the source side has its own tokenizer.
            const auto srcDir = std::filesystem::path(run.toStdString()) / "source_tokenizer";
            const auto src = data.source_vocab_size == 0 ? tok
                             : QFileInfo::exists(run + "/source_tokenizer/tokenizer.json")
                                 ? twb::TextTokenizer::load(srcDir)
                                 : twb::TextTokenizer::load(data.dir / "source_tokenizer");
            emit validationText(id, std2q(src.decode(pairs[static_cast<size_t>(i)].source)));
            return;
        }
        const uint64_t n = std::min<uint64_t>(size, static_cast<uint64_t>(std::min<int64_t>(cfg.block_size, 128)));
        const uint64_t start = size > n ? QRandomGenerator::global()->bounded(static_cast<quint64>(size - n)) : 0;
        emit validationText(id, std2q(tok.decode(twb::read_tokens(data, val ? "val" : "train", start, n))));
    });
}

void ModelWorker::nearestTokens(quint64 id, const QString& run, const QString& checkpoint, const QString& text, int k) {
    guarded(this, id, [&] {
        open(run, checkpoint);
        emit neighboursFound(id, m_session.nearest_tokens(text.toStdString(), k), m_session.step());
    });
}

void ModelWorker::tokenSimilarity(quint64 id, const QString& run, const QString& checkpoint, const QString& a,
                                  const QString& b) {
    guarded(this, id, [&] {
        open(run, checkpoint);
        emit similarityFound(id, m_session.similarity(a.toStdString(), b.toStdString()), m_session.step());
    });
}

void ModelWorker::embeddingMap(quint64 id, const QString& run, const QString& checkpoint, int n) {
    guarded(this, id, [&] {
        open(run, checkpoint);
        emit embeddingMapReady(id, m_session.embedding_map(n), m_session.step());
    });
}

void ModelWorker::evaluateGenerations(const GenerationEvalRequest& r) {
    guarded(this, r.id, [&] {
        open(r.run, r.checkpoint);
        bool cancelled = false;
        const auto rows =
            twb::evaluate_generations(m_session, r.prompts, r.references, r.settings, [&](size_t done, size_t total) {
                emit generationEvalProgress(r.id, int(done), int(total));
                cancelled = r.cancel && *r.cancel;
                return !cancelled;
            });
        emit generationEvalFinished(r.id, rows, cancelled);
    });
}
