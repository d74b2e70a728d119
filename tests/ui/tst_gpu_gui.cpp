// The GUI on a GPU machine (issue 33), offscreen: the Training form's device chooser names each CUDA GPU
// with its memory, the status bar's runtime line names the GPU, and a short run with the defaults' device
// and dtype (auto) trains on it in bf16 while the progress line shows the GPU memory in use. Skips where
// no CUDA GPU is seen (everywhere but bench/gpu_check.sh's machine). With TWB_SCREENSHOT_DIR set it saves
// the window at 1280x720 there, mid-run and at the end, for a person to look at.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/devices.h"
#include "twb/train_job.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/TrainingPanel.h"
#include "ui_fixture.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>

class TestGpuGui : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    twb::ComputeDevice m_gpu;

    static void screenshot(QWidget& w, const char* name) {
        const QString dir = qEnvironmentVariable("TWB_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QTest::qWait(300);  // the plots replot at most every 40 ms, queued: the picture shows the last points
        QVERIFY(w.grab().save(dir + "/" + name, "PNG"));
    }

private slots:
    void initTestCase() {
        for (const auto& d : twb::compute_devices())
            if (d.spelling.rfind("cuda:", 0) == 0 && m_gpu.spelling.empty())
                m_gpu = d;
        if (m_gpu.spelling.empty())
            QSKIP("no CUDA GPU seen on this machine (bench/gpu_check.sh runs this test on one)");
        twbtest::use_test_workspace(m_ws);
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(200000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "small";
        twb::prepare_dataset(o);
    }
    void theWindowNamesTheGpuAndTrainsOnIt() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        // The device chooser: "cuda:0 — NVIDIA H200, 139.8 GiB" beside Automatic and CPU.
        TrainingPanel* p = w.trainingPanel();
        auto* device = p->form()->findChild<QComboBox*>("device");
        QVERIFY(device);
        const QString gpuName = QString::fromStdString(m_gpu.name);
        const int gpuRow = device->findData(QString::fromStdString(m_gpu.spelling));
        QVERIFY2(gpuRow >= 0, m_gpu.spelling.c_str());
        qInfo().noquote() << "device chooser:" << device->itemText(gpuRow);
        QVERIFY(device->itemText(gpuRow).contains(gpuName));
        QVERIFY(device->itemText(gpuRow).contains("GiB"));
        QCOMPARE(device->currentData().toString(), QString("auto"));  // the default stays automatic

        // The status bar's runtime line: the GPU by its name, and bf16 where the GPU has it.
        QLabel* runtime = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (auto* l : w.statusBar()->findChildren<QLabel*>())
                    if (l->text().contains(" threads · "))
                        runtime = l;
                return runtime != nullptr;
            }(),
            120000);
        qInfo().noquote() << "status bar:" << runtime->text();
        QVERIFY(runtime->text().contains(gpuName));

        // A short run with the defaults' device and dtype: on the GPU, in bf16, its memory on the progress line.
        w.findChild<QListWidget*>("navigation")->setCurrentRow(1);
        p->setDataset(
            QString::fromStdString((std::filesystem::path(Workspace::datasetsDir().toStdString()) / "small").string()));
        p->form()->applyPreset("tiny");
        twbtest::set_spin(p->form(), "max_iters", 400);
        twbtest::set_spin(p->form(), "lr_decay_iters", 400);
        twbtest::set_spin(p->form(), "eval_interval", 200);
        twbtest::set_spin(p->form(), "eval_iters", 10);
        twbtest::set_spin(p->form(), "log_interval", 10);
        QSignalSpy steps(p->worker(), &TrainWorker::stepReported), done(p->worker(), &TrainWorker::finished),
            failed(p->worker(), &TrainWorker::failed);
        auto* start = p->findChild<QPushButton*>("start");
        QVERIFY(start->isEnabled());
        start->click();
        QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 3 || !failed.isEmpty(), 180000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const auto r = steps.last().first().value<twb::StepReport>();
        qInfo().noquote() << "step" << r.step << "dtype" << QString::fromStdString(r.dtype) << "GPU memory"
                          << r.device_memory_used << "/" << r.device_memory_total;
        QVERIFY(r.device_memory_total > 0);  // a CUDA run: the CPU reports none
        QVERIFY(r.device_memory_used > 0 && r.device_memory_used <= r.device_memory_total);
        QCOMPARE(QString::fromStdString(r.dtype), QString("bfloat16"));  // compute capability 8 and later
        auto* status = p->findChild<QLabel*>("status");
        QTRY_VERIFY(status->text().contains("GPU memory"));
        qInfo().noquote() << "progress line:" << status->text();
        screenshot(w, "gpu-training.png");
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 300000);
        QVERIFY(failed.isEmpty());
        QApplication::processEvents();
        screenshot(w, "gpu-trained.png");
    }
};

QTEST_MAIN(TestGpuGui)
#include "tst_gpu_gui.moc"
