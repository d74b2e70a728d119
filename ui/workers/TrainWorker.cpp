#include "ui/workers/TrainWorker.h"

TrainWorker::TrainWorker(QObject* parent) : QObject(parent) {
    registerTypes();
}

void TrainWorker::registerTypes() {
    qRegisterMetaType<TrainRequest>();
    qRegisterMetaType<twb::TrainStartInfo>();
    qRegisterMetaType<twb::StepReport>();
    qRegisterMetaType<twb::EvalReport>();
    qRegisterMetaType<twb::TrainSummary>();
}

void TrainWorker::train(const TrainRequest& request) {
    try {
        twb::TrainCallbacks cb;
        cb.on_start = [this](const twb::TrainStartInfo& i) { emit started(i); };
        cb.on_step = [this](const twb::StepReport& r) {
            emit stepReported(r);
            return true;
        };
        cb.on_eval = [this](const twb::EvalReport& r) { emit evaluated(r); };
        cb.on_checkpoint = [this](const std::string& p, int64_t s) {
            emit checkpointWritten(QString::fromStdString(p), s);
        };
        cb.on_message = [this](const std::string& m) { emit message(QString::fromStdString(m)); };
        cb.on_pause = [this](int64_t step) { emit paused(step); };
        const auto summary = twb::train(request.job, cb, request.control.get());
        emit finished(summary);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    } catch (...) {
        emit failed(tr("training failed with an unknown error"));
    }
}
