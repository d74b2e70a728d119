// Runs training on its own thread and re-emits the engine's callbacks as queued signals. It keeps a thread
// of its own (not a JobsService job) because pause, stop and checkpoint-now act on a job that runs for hours;
// the Training panel reports it to the jobs service as a tracked job. Pause/stop/checkpoint-now go straight
// to the job's TrainControl (atomic flags) from the GUI thread, since this thread is busy while training.
// Every slot catches exceptions and emits failed(): an exception escaping a thread would end the program.
#pragma once
#include "twb/training.h"

#include <QObject>
#include <QString>
#include <memory>

struct TrainRequest {
    twb::TrainJob job;
    std::shared_ptr<twb::TrainControl> control;
};

Q_DECLARE_METATYPE(TrainRequest)
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

signals:
    void started(const twb::TrainStartInfo& info);
    void stepReported(const twb::StepReport& report);
    void evaluated(const twb::EvalReport& report);
    void checkpointWritten(const QString& path, qint64 step);
    /// A pause took effect with `step` steps done (a stop now checkpoints that step).
    void paused(qint64 step);
    void message(const QString& text);
    void finished(const twb::TrainSummary& summary);
    void failed(const QString& error);
};
