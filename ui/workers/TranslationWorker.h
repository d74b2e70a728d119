// Runs an encoder-decoder run (twb::Translator, translation.h) off the UI thread for the Sampling
// console's translation mode: one source streamed token by token with probabilities and alternatives, and
// a whole file translated line by line (progress, cancel, hypotheses written through a temporary renamed
// at the end, corpus BLEU and chrF against an optional reference file). Lives on the ModelThread beside
// the ModelWorker, so translation and sampling requests queue on the one thread. Every request carries an
// id and every answer (failed() included) carries it back; every slot catches engine errors and emits
// failed(). Cancel is a shared atomic flag the panel sets directly.
#pragma once
#include "twb/bleu.h"
#include "twb/translation.h"
#include "ui/workers/ModelWorker.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <atomic>
#include <memory>

struct TranslateRequest {
    quint64 id = 0;
    QString run, checkpoint, source;
    twb::TranslateOptions options;
    int alternatives = 8;
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct TranslateResult {
    quint64 id = 0;
    QString text;  // the whole translation (Translator::translate's for the source)
    qint64 step = 0;
    int sourceTokens = 0, tokens = 0;
    int beamWidth = 1;
    double seconds = 0;
    bool cancelled = false;
    bool atLimit = false;  // it stopped at the length limit, not at <eos>: probably unfinished
};

struct BatchTranslateRequest {
    quint64 id = 0;
    QString run, checkpoint;
    QString input;      // one source per line
    QString output;     // the hypotheses, one per line (written at the end)
    QString reference;  // "" = none; else one reference per input line
    twb::TranslateOptions options;
    int previewRows = 50;  // (source, hypothesis, reference) rows sent back
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct BatchTranslateResult {
    quint64 id = 0;
    qint64 step = 0;
    qint64 lines = 0;
    bool cancelled = false;  // then nothing was written
    bool scored = false;     // a reference was given: bleu and chrf hold its scores
    twb::BleuScore bleu;
    twb::ChrfScore chrf;
    QVector<QStringList> rows;  // the first previewRows (source, hypothesis, reference or "")
    double seconds = 0;
    QString output;
    qint64 cropped = 0;          // lines longer than the encoder takes, translated from their start
    qint64 firstCropped = 0;     // the first of them (from 1)
    qint64 maxSourceTokens = 0;  // what the encoder takes
    qint64 limited = 0;          // translations that stopped at the length limit, not at <eos>
    qint64 firstLimited = 0;     // the first of them (from 1)
};

Q_DECLARE_METATYPE(TranslateRequest)
Q_DECLARE_METATYPE(TranslateResult)
Q_DECLARE_METATYPE(BatchTranslateRequest)
Q_DECLARE_METATYPE(BatchTranslateResult)

class TranslationWorker : public QObject {
    Q_OBJECT
public:
    explicit TranslationWorker(QObject* parent = nullptr);
    static void registerTypes();

public slots:
    void translate(const TranslateRequest& request);
    void translateFile(const BatchTranslateRequest& request);

signals:
    void token(quint64 id, const UiToken& t);
    void translated(const TranslateResult& result);
    void batchProgress(quint64 id, qint64 done, qint64 total);
    void batchFinished(const BatchTranslateResult& result);
    void failed(quint64 id, const QString& error);

private:
    void open(const QString& run, const QString& checkpoint);
    twb::Translator m_translator;
};
