// Runs the experiment engine calls (twb/experiments.h) off the UI thread: a sweep's cells one after
// another, the learning-rate range finder on a fresh model, and a dataset's reference baselines. The
// engine's callbacks come back as queued signals. Stop is the request's TrainControl (sweeps) or atomic
// flag (range finder), set directly from the GUI thread; cells to leave out are a shared, locked set the
// panel edits while the sweep runs. Every slot catches exceptions and emits failed().
#pragma once
#include "twb/dataset.h"
#include "twb/experiments.h"
#include "twb/training.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>

/// Cells the user removed from a running sweep: read on the worker thread, written on the UI thread.
struct SkippedCells {
    std::mutex mutex;
    std::set<size_t> cells;
    bool contains(size_t i) {
        std::lock_guard<std::mutex> lock(mutex);
        return cells.count(i) > 0;
    }
    void insert(size_t i) {
        std::lock_guard<std::mutex> lock(mutex);
        cells.insert(i);
    }
};

struct SweepRequest {
    QString dir;
    twb::SweepSpec spec;
    std::shared_ptr<twb::TrainControl> control;
    std::shared_ptr<SkippedCells> skipped;
};
struct LrFindRequest {
    twb::LrFindOptions options;
    std::shared_ptr<std::atomic<bool>> cancel;
};

/// Datasets to prepare (the same text under several tokenizers); one already prepared at its folder is
/// kept as it is.
struct PrepareSetRequest {
    std::vector<twb::PrepareOptions> datasets;
    std::shared_ptr<std::atomic<bool>> cancel;
};

Q_DECLARE_METATYPE(SweepRequest)
Q_DECLARE_METATYPE(PrepareSetRequest)
Q_DECLARE_METATYPE(LrFindRequest)
Q_DECLARE_METATYPE(twb::LrFindPoint)
Q_DECLARE_METATYPE(twb::LrFindResult)
Q_DECLARE_METATYPE(std::vector<twb::BaselineResult>)

class ExperimentWorker : public QObject {
    Q_OBJECT
public:
    explicit ExperimentWorker(QObject* parent = nullptr);
    static void registerTypes();

public slots:
    void runSweep(const SweepRequest& request);
    void findLearningRate(const LrFindRequest& request);
    void computeBaselines(const QString& dataDir);
    void prepareSet(const PrepareSetRequest& request);

signals:
    void cellStarted(int index, int total, const QString& runDir, bool resumed);
    void cellDone(int index, const QString& runDir, bool skipped);
    void stepReported(const twb::StepReport& report);
    void evaluated(const twb::EvalReport& report);
    void sweepFinished(bool complete);
    void lrPoint(const twb::LrFindPoint& point);
    void lrFound(const twb::LrFindResult& result, bool cancelled);
    void baselinesReady(const QString& dataDir, const std::vector<twb::BaselineResult>& rows);
    void preparing(const QString& what, double fraction);
    void setPrepared(const QStringList& dirs);
    void failed(const QString& error);
};
