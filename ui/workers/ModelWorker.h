// Runs a loaded checkpoint off the UI thread for the Sampling and Attention panels: generation with
// per-token streaming, checkpoint comparison, batch evaluation of decoding settings, attention capture, position
// tables, the run's probe timeline, its sample history (RUN/samples.jsonl, through the engine's samples_history.h),
// chat turns and their history (RUN/chat.jsonl, chat_history.h) and the embedding explorer's queries. Lives on a
// ModelThread, which the two panels may share; every request carries an id and every answer (failed() included) carries
// it back. Every slot catches engine errors and emits failed(). Stop is a shared atomic flag the panel sets directly
// (the generation loop checks it per token).
#pragma once
#include "twb/chat_history.h"
#include "twb/generation.h"
#include "twb/generation_eval.h"
#include "twb/probe.h"
#include "twb/samples_history.h"
#include "twb/session.h"
#include "twb/translation.h"
#include "twb/translation_attention.h"

#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>
#include <atomic>
#include <map>
#include <memory>

/// One streamed token, with its alternatives already turned into text.
struct UiToken {
    int sample = 0;
    int id = 0;
    QString text;  // text to append (may be empty inside a multi-byte character)
    double prob = 0;
    QVector<int> altIds;
    QVector<QString> altTexts;
    QVector<double> altProbs;
};

struct GenerateRequest {
    quint64 id = 0;
    QString run, checkpoint;
    QString prompt;            // encoded by the worker unless ids are given
    std::vector<int32_t> ids;  // branching: the exact context to continue
    twb::SamplingOptions options;
    std::shared_ptr<std::atomic<bool>> cancel;
    bool record = true;  // append to RUN/samples.jsonl
    QString note;        // recorded with the history entry ("branch at token 12")
};

struct GenerateResult {
    quint64 id = 0;
    std::vector<int32_t> promptIds;
    QString promptText;
    qint64 step = 0;
    QStringList texts;
    double tokensPerS = 0, seconds = 0;
    qint64 generated = 0;
    bool cancelled = false;
    QStringList warnings;
};

/// One chat turn (twb/chat.h): the conversation so far, its last message the user's; the worker streams the
/// reply's tokens, then records the turns RUN/chat.jsonl lacks (messages from `recorded` on, and the reply).
struct ChatRequest {
    quint64 id = 0;
    QString run, checkpoint;
    qint64 conversation = 1;
    twb::Conversation messages;
    size_t recorded = 0;  // messages already in the history file
    twb::SamplingOptions options;
    std::shared_ptr<std::atomic<bool>> cancel;
    bool record = true;
};

struct ChatResult {
    quint64 id = 0;
    QString reply;
    qint64 step = 0;
    qint64 generated = 0;
    double tokensPerS = 0;
    bool cancelled = false;
    bool endOfTurn = false;  // stopped at the end-of-turn token (not at the length limit)
    QStringList warnings;
};

struct CompareRequest {
    quint64 id = 0;
    QString prompt;
    QVector<QPair<QString, QString>> columns;  // (run, checkpoint) per column
    QString baseRun;                           // the run chosen in the panel
    QString judgeRun;                          // "" = none; else every cell is scored by this run's best checkpoint
    QVector<double> temperatures;              // one row each
    twb::SamplingOptions options;              // seed fixed by the panel
    std::shared_ptr<std::atomic<bool>> cancel;
};

/// Batch evaluation of generations (twb/generation_eval.h): every prompt with every setting.
struct GenerationEvalRequest {
    quint64 id = 0;
    QString run, checkpoint;
    std::vector<std::string> prompts, references;  // references: empty or one per prompt
    std::vector<twb::DecodingSetting> settings;
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct AttentionRequest {
    quint64 id = 0;
    QString run, checkpoint, text;
    QString target;  // a translation run only: the target, teacher-forced ("" = the model's greedy translation)
};

/// A capture with what the viewer shows and exports beside it (computed off the UI thread).
struct CaptureResult {
    quint64 id = 0;
    twb::AttentionCapture capture;
    twb::HeadScores scores;
    qint64 step = 0;
    QString checkpoint;                     // folder of the checkpoint it came from
    std::map<int, std::string> tokenTexts;  // the tokens capture.next_top names
    /// An encoder-decoder run: its three captures (capture is then empty) and their head scores
    /// (encoder self, decoder self, cross).
    bool translation = false;
    twb::TranslationAttention pair;
    std::vector<twb::HeadScores> pairScores;
};

Q_DECLARE_METATYPE(UiToken)
Q_DECLARE_METATYPE(GenerateRequest)
Q_DECLARE_METATYPE(GenerateResult)
Q_DECLARE_METATYPE(CompareRequest)
Q_DECLARE_METATYPE(ChatRequest)
Q_DECLARE_METATYPE(ChatResult)
Q_DECLARE_METATYPE(twb::ChatThread)
Q_DECLARE_METATYPE(AttentionRequest)
Q_DECLARE_METATYPE(GenerationEvalRequest)
Q_DECLARE_METATYPE(std::vector<twb::GenerationEvalRow>)
Q_DECLARE_METATYPE(CaptureResult)
Q_DECLARE_METATYPE(twb::AttentionCapture)
Q_DECLARE_METATYPE(twb::HeadScores)
Q_DECLARE_METATYPE(std::vector<twb::HeadScores>)
Q_DECLARE_METATYPE(twb::PositionTable)
Q_DECLARE_METATYPE(twb::ProbeTimeline)
Q_DECLARE_METATYPE(std::vector<twb::SampleRecord>)
Q_DECLARE_METATYPE(twb::NeighbourResult)
Q_DECLARE_METATYPE(twb::SimilarityResult)
Q_DECLARE_METATYPE(twb::EmbeddingMap)

class ModelWorker : public QObject {
    Q_OBJECT
public:
    explicit ModelWorker(QObject* parent = nullptr);
    static void registerTypes();

public slots:
    void generate(const GenerateRequest& request);
    void compare(const CompareRequest& request);
    /// A chat reply through ModelSession::chat; then the turns recorded in RUN/chat.jsonl (twb/chat_history.h).
    void chat(const ChatRequest& request);
    /// The run's latest conversation (or a fresh number when `fresh`), from RUN/chat.jsonl.
    void loadChat(quint64 id, const QString& run, bool fresh);
    void evaluateGenerations(const GenerationEvalRequest& request);
    void capture(const AttentionRequest& request);
    void loadPositions(quint64 id, const QString& run, const QString& checkpoint);
    void loadProbe(quint64 id, const QString& run);
    void loadHistory(quint64 id, const QString& run);
    /// A random stretch of the run's validation text, about block_size tokens (at most 128).
    void pickValidationText(quint64 id, const QString& run);
    /// The embedding explorer (twb/embeddings.h): a text's k nearest tokens, two texts' similarity,
    /// the map of the n most frequent tokens.
    void nearestTokens(quint64 id, const QString& run, const QString& checkpoint, const QString& text, int k);
    void tokenSimilarity(quint64 id, const QString& run, const QString& checkpoint, const QString& a, const QString& b);
    void embeddingMap(quint64 id, const QString& run, const QString& checkpoint, int n);

signals:
    void token(quint64 id, const UiToken& t);
    void generated(const GenerateResult& result);
    void compareCell(quint64 id, int row, int column, const QString& header, const QString& text);
    /// A cell's perplexity under the judge run (the prompt as context, the generated text scored), or NaN
    /// and why the judge cannot score it (a character its tokenizer lacks, say).
    /// precision: what the judge scored in ("float32"); problem: why it could not (perplexity NaN).
    void compareJudged(quint64 id, int row, int column, double perplexity, const QString& precision,
                       const QString& problem);
    void compareFinished(quint64 id, bool cancelled);
    void chatReplied(const ChatResult& result);
    /// The run's latest conversation, and why the run cannot chat (empty when it can).
    void chatLoaded(quint64 id, const QString& run, const twb::ChatThread& thread, const QString& unavailable,
                    bool untrained);
    void generationEvalProgress(quint64 id, int done, int total);
    /// The rows so far (every setting unless cancelled).
    void generationEvalFinished(quint64 id, const std::vector<twb::GenerationEvalRow>& rows, bool cancelled);
    void captured(const CaptureResult& result);
    void positionsLoaded(quint64 id, const twb::PositionTable& table);
    /// The run's probe timeline and the head scores of each of its steps.
    void probeLoaded(quint64 id, const QString& run, const twb::ProbeTimeline& timeline,
                     const std::vector<twb::HeadScores>& scores);
    /// Every generation recorded in the run (by the GUI or `twb sample`), oldest first.
    void historyLoaded(quint64 id, const QString& run, const std::vector<twb::SampleRecord>& records);
    void validationText(quint64 id, const QString& text);
    void neighboursFound(quint64 id, const twb::NeighbourResult& result, qint64 step);
    void similarityFound(quint64 id, const twb::SimilarityResult& result, qint64 step);
    void embeddingMapReady(quint64 id, const twb::EmbeddingMap& map, qint64 step);
    void failed(quint64 id, const QString& error);

private:
    void open(const QString& run, const QString& checkpoint);
    /// The same for an encoder-decoder run, in m_translator.
    void openTranslator(const QString& run, const QString& checkpoint);
    void judge(const CompareRequest& r, int row, int column, const std::string& text);
    twb::ModelSession m_session;
    twb::ModelSession m_judge;     // the comparison's judge, kept loaded between comparisons
    twb::Translator m_translator;  // an encoder-decoder run's checkpoint, for its attention
};
