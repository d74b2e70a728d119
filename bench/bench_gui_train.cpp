// Training inside the GUI against headless training with the same config, and the longest stall of the
// UI thread while training (a 5 ms heartbeat timer on the UI thread; a gap much longer than 5 ms means
// the UI could not respond). The machine is noisy, so headless and GUI runs alternate for several rounds
// and the ratio of the medians is reported. Usage: bench_gui_train DATASET_DIR [ITERS] [ROUNDS] [BEAT_MS]
#include "twb/training.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/TrainingPanel.h"
#include "ui/workers/TrainWorker.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_gui_train DATASET_DIR [ITERS]\n");
        return 1;
    }
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir ws;
    Workspace::setRoot(ws.path());
    const QString data = QString::fromLocal8Bit(argv[1]);
    const int iters = argc > 2 ? std::atoi(argv[2]) : 150;

    twb::RunConfig cfg = twb::preset_config("nanogpt-cpu");
    cfg.max_iters = iters;
    cfg.lr_decay_iters = iters;
    cfg.eval_interval = 100;
    cfg.threads = 2;
    cfg.data_dir = data.toStdString();

    const int rounds = argc > 3 ? std::atoi(argv[3]) : 4;
    TrainingPanel panel;
    panel.resize(1400, 800);
    panel.show();
    panel.setDataset(data);
    std::vector<double> headless, gui, gaps;
    bool measuring = false;
    QElapsedTimer beat;
    QTimer heartbeat;
    const int beatMs = argc > 4 ? std::atoi(argv[4]) : 5;
    heartbeat.setInterval(beatMs);
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        if (measuring && beat.isValid())
            gaps.push_back(beat.nsecsElapsed() / 1e6);
        beat.restart();
    });
    heartbeat.start();
    QObject::connect(panel.worker(), &TrainWorker::stepReported,
                     [&](const twb::StepReport& r) { gui.push_back(r.ms_per_step); });
    QObject::connect(panel.worker(), &TrainWorker::finished, &app, &QApplication::quit);
    QObject::connect(panel.worker(), &TrainWorker::failed, &app, [&](const QString& e) {
        std::fprintf(stderr, "failed: %s\n", qPrintable(e));
        app.quit();
    });
    for (int r = 0; r < rounds; ++r) {
        {  // headless, same process, same config, on this thread
            twb::TrainJob job;
            job.config = cfg;
            job.run_dir = (ws.path() + "/headless-" + QString::number(r)).toStdString();
            twb::TrainCallbacks cb;
            cb.on_step = [&](const twb::StepReport& rep) {
                headless.push_back(rep.ms_per_step);
                return true;
            };
            twb::train(job, cb);
        }
        panel.newRun();  // in the GUI: the panel's worker thread, plots live, heartbeat on the UI thread
        panel.form()->setConfig(cfg);
        measuring = true;
        beat.invalidate();
        QTimer::singleShot(0, &panel, &TrainingPanel::start);
        app.exec();
        measuring = false;
    }

    auto median = [](std::vector<double> v) {
        if (v.empty())
            return 0.0;
        std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    std::sort(gaps.begin(), gaps.end());
    const double p99 = gaps.empty() ? 0 : gaps[gaps.size() * 99 / 100];
    std::printf("nanoGPT CPU recipe, %d rounds of %d iters each way, alternating, 2 threads\n", rounds, iters);
    std::printf("headless (engine API):  median %.2f ms/step\n", median(headless));
    std::printf("GUI (worker thread):    median %.2f ms/step  (%+.1f%% against headless)\n", median(gui),
                100.0 * (median(gui) / median(headless) - 1.0));
    std::printf("UI heartbeat (%d ms): %zu beats, longest gap %.1f ms, 99th percentile %.1f ms\n", beatMs, gaps.size(),
                gaps.empty() ? 0.0 : gaps.back(), p99);
    return 0;
}
