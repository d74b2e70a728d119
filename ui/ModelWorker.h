// Runs a loaded checkpoint off the UI thread for the Sampling and Attention panels: generation with
// per-token streaming, checkpoint comparison, attention capture, position tables and the run's
// prompt history. Lives on its own QThread; every slot catches engine errors and emits failed().
// Stop is a shared atomic flag the panel sets directly (the generation loop checks it per token).
#pragma once
#include "engine/nn/generation_types.h"
#include "engine/nn/model_session.h"
#include "engine/probe_log.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QPair>
#include <QString>
#include <QVector>
#include <atomic>
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
    twb::nn::SamplingOptions options;
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

struct CompareRequest {
    QString prompt;
    QVector<QPair<QString, QString>> columns;  // (run, checkpoint) per column
    QString baseRun;                           // the run chosen in the panel
    QVector<double> temperatures;              // one row each
    twb::nn::SamplingOptions options;          // seed fixed by the panel
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct AttentionRequest {
    QString run, checkpoint, text;
};

Q_DECLARE_METATYPE(UiToken)
Q_DECLARE_METATYPE(GenerateRequest)
Q_DECLARE_METATYPE(GenerateResult)
Q_DECLARE_METATYPE(CompareRequest)
Q_DECLARE_METATYPE(AttentionRequest)
Q_DECLARE_METATYPE(twb::nn::AttentionCapture)
Q_DECLARE_METATYPE(twb::nn::HeadScores)
Q_DECLARE_METATYPE(std::vector<twb::nn::HeadScores>)
Q_DECLARE_METATYPE(twb::nn::PositionTable)
Q_DECLARE_METATYPE(twb::ProbeTimeline)

class ModelWorker : public QObject {
    Q_OBJECT
public:
    explicit ModelWorker(QObject* parent = nullptr);
    static void registerTypes();
    /// Appends an entry to RUN/samples.jsonl (rewritten through a temp file and renamed).
    static void appendHistory(const QString& run, const QJsonObject& entry);
    static QJsonArray readHistory(const QString& run);

public slots:
    void generate(const GenerateRequest& request);
    void compare(const CompareRequest& request);
    void capture(const AttentionRequest& request);
    void loadPositions(const QString& run, const QString& checkpoint);
    void loadProbe(const QString& run);
    void loadHistory(const QString& run);
    /// A random stretch of the run's validation text, about block_size tokens (at most 128).
    void pickValidationText(const QString& run);

signals:
    void token(quint64 id, const UiToken& t);
    void generated(const GenerateResult& result);
    void compareCell(int row, int column, const QString& header, const QString& text);
    void compareFinished(bool cancelled);
    /// A capture with its head scores (computed here, off the UI thread).
    void captured(const twb::nn::AttentionCapture& capture, const twb::nn::HeadScores& scores, qint64 step);
    void positionsLoaded(const twb::nn::PositionTable& table);
    /// The run's probe timeline and the head scores of each of its steps.
    void probeLoaded(const QString& run, const twb::ProbeTimeline& timeline,
                     const std::vector<twb::nn::HeadScores>& scores);
    void historyLoaded(const QString& run, const QJsonArray& entries);
    void validationText(const QString& text);
    void failed(const QString& error);

private:
    void open(const QString& run, const QString& checkpoint);
    twb::nn::ModelSession m_session;
};
