#include "ui/workers/ExperimentWorker.h"

#include "twb/errors.h"
#include "twb/text.h"
#include "ui/workers/TrainWorker.h"

#include <filesystem>

ExperimentWorker::ExperimentWorker(QObject* parent) : QObject(parent) {
    registerTypes();
}

void ExperimentWorker::registerTypes() {
    TrainWorker::registerTypes();
    qRegisterMetaType<SweepRequest>();
    qRegisterMetaType<LrFindRequest>();
    qRegisterMetaType<PrepareSetRequest>();
    qRegisterMetaType<twb::LrFindPoint>();
    qRegisterMetaType<twb::LrFindResult>();
    qRegisterMetaType<std::vector<twb::BaselineResult>>();
}

void ExperimentWorker::runSweep(const SweepRequest& r) {
    try {
        const std::filesystem::path dir = r.dir.toStdString();
        const auto cells = twb::sweep_cells(r.spec);
        auto runDir = [&](size_t i) { return QString::fromStdString((dir / twb::cell_name(i, cells[i])).string()); };
        twb::SweepCallbacks cb;
        cb.on_cell_start = [&](size_t i, size_t total, const twb::SweepCell&, bool resumed) {
            emit cellStarted(int(i), int(total), runDir(i), resumed);
        };
        cb.on_cell_done = [&](size_t i, const twb::TrainSummary& s, bool skipped) {
            if (!s.stopped)  // a stopped cell is not done: the sweep's end marks it resumable
                emit cellDone(int(i), runDir(i), skipped);
        };
        cb.skip_cell = [&](size_t i) { return r.skipped && r.skipped->contains(i); };
        cb.train.on_step = [this](const twb::StepReport& s) {
            emit stepReported(s);
            return true;
        };
        cb.train.on_eval = [this](const twb::EvalReport& e) { emit evaluated(e); };
        const bool complete = twb::run_sweep(dir, r.spec, cb, r.control.get());
        // the same tables `twb sweep` leaves beside the cells
        const auto runs = twb::collect_runs(dir);
        twb::write_file_atomic(dir / "results.md", twb::runs_table_markdown(runs));
        twb::write_file_atomic(dir / "results.csv", twb::runs_table_csv(runs));
        emit sweepFinished(complete);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    } catch (...) {
        emit failed(tr("the sweep failed with an unknown error"));
    }
}

void ExperimentWorker::findLearningRate(const LrFindRequest& r) {
    try {
        bool cancelled = false;
        const auto result = twb::find_learning_rate(r.options, [&](const twb::LrFindPoint& p) {
            emit lrPoint(p);
            cancelled = r.cancel && *r.cancel;
            return !cancelled;
        });
        emit lrFound(result, cancelled);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    } catch (...) {
        emit failed(tr("the range finder failed with an unknown error"));
    }
}

void ExperimentWorker::computeBaselines(const QString& dataDir) {
    try {
        emit baselinesReady(dataDir, twb::evaluate_baselines(dataDir.toStdString()));
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
}

void ExperimentWorker::prepareSet(const PrepareSetRequest& r) {
    try {
        QStringList dirs;
        for (size_t i = 0; i < r.datasets.size(); ++i) {
            const auto& o = r.datasets[i];
            const QString name = QString::fromStdString(o.out.filename().string());
            bool ready = false;
            try {
                twb::open_prepared(o.out);
                ready = true;
            } catch (const std::exception&) {
            }
            if (!ready)
                twb::prepare_dataset(o, [&](const std::string&, uint64_t done, uint64_t total) {
                    emit preparing(
                        name, (double(i) + (total ? double(done) / double(total) : 0.0)) / double(r.datasets.size()));
                    return !(r.cancel && *r.cancel);
                });
            dirs << QString::fromStdString(o.out.string());
        }
        emit setPrepared(dirs);
    } catch (const twb::Cancelled&) {
        emit failed(tr("preparation cancelled"));
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
}
