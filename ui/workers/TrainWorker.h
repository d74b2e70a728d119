// Runs engine jobs (training, preparing the default dataset) on its own thread and re-emits the
// engine's callbacks as queued signals. Pause/stop/checkpoint-now go straight to the job's
// TrainControl (atomic flags) from the GUI thread, since this thread is busy while training. Every
// slot catches exceptions and emits failed(): an exception escaping a thread would end the program.
#pragma once
#include "twb/dataset.h"
#include "twb/training.h"

#include <QObject>
#include <QString>
#include <memory>

struct TrainRequest {
    twb::TrainJob job;
    std::shared_ptr<twb::TrainControl> control;
};
struct PrepareRequest {
    twb::PrepareOptions options;
    std::shared_ptr<std::atomic<bool>> cancel;
};

Q_DECLARE_METATYPE(TrainRequest)
Q_DECLARE_METATYPE(PrepareRequest)
Q_DECLARE_METATYPE(twb::TrainStartInfo)
Q_DECLARE_METATYPE(twb::StepReport)
Q_DECLARE_METATYPE(twb::EvalReport)
Q_DECLARE_METATYPE(twb::TrainSummary)

class TrainWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainWorker(QObject* parent = nullptr);
    static void registerTypes();

public slots:
    void train(const TrainRequest& request);
    void prepare(const PrepareRequest& request);

signals:
    void started(const twb::TrainStartInfo& info);
    void stepReported(const twb::StepReport& report);
    void evaluated(const twb::EvalReport& report);
    void checkpointWritten(const QString& path, qint64 step);
    void message(const QString& text);
    void finished(const twb::TrainSummary& summary);
    void preparing(const QString& stage, double fraction);
    void prepared(const QString& dir);
    void failed(const QString& error);
};
