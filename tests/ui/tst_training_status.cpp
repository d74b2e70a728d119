// What the training panel's status line says of a run beyond its steps: a dataset whose validation split
// is shorter than a block is evaluated on its training split, and the line says so at start and finish
// instead of calling training-data figures "val loss".
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/run_folder.h"
#include "twb/text.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/SteadyLabel.h"
#include "ui_fixture.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>

class TestTrainingStatus : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;

private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }

    void aValidationSplitShorterThanABlockIsSaid() {
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(5000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        o.val_fraction = 0.004;  // 20 characters: less than a block of 32
        o.out = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "short-val";
        const auto prepared = twb::prepare_dataset(o);
        QVERIFY(prepared.val_tokens > 0 && prepared.val_tokens < 32);
        TrainingPanel p;
        p.setDataset(QString::fromStdString(o.out.string()));
        p.form()->applyPreset("tiny");
        for (auto [name, v] : {std::pair{"n_layer", 1},
                               {"n_embd", 32},
                               {"n_head", 2},
                               {"block_size", 32},
                               {"batch_size", 4},
                               {"max_iters", 10},
                               {"lr_decay_iters", 10},
                               {"warmup_iters", 2},
                               {"eval_interval", 5},
                               {"eval_iters", 2},
                               {"threads", 1}})
            twbtest::set_spin(p.form(), name, v);
        QSignalSpy done(p.worker(), &TrainWorker::finished);
        // In Bokmål the figures take its decimal comma, as the plots and fields do (they had dots).
        QLocale::setDefault(QLocale(QLocale::NorwegianBokmal, QLocale::Norway));
        p.findChild<QPushButton*>("start")->click();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QTRY_VERIFY(!p.isBusy());
        QLocale::setDefault(QLocale::c());
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(
            status.contains("no validation split") && status.contains("best loss") && !status.contains("best val loss"),
            qPrintable(status));
        const QString eval = p.findChild<SteadyLabel*>("evalReadout")->text();
        QVERIFY2(QRegularExpression("val loss \\d+,\\d{4} ").match(eval).hasMatch(), qPrintable(eval));
    }

    void aRunThatCannotContinueIsSaidBeforeItsCurvesGo() {
        // A run whose checkpoints were deleted read "No checkpoint yet", and Start replaced its metrics.csv
        // without a word; a run whose folder was moved turned into a new run showing the old curves.
        const QString run = twbtest::make_tiny_run(m_ws, "no-checkpoints", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(QDir(run + "/checkpoints").removeRecursively());
        const std::string before = twb::read_file((run + "/metrics.csv").toStdString());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.startsWith("No checkpoint left to continue from"), qPrintable(status));
        QString asked;
        QTimer::singleShot(0, this, [&asked] {  // the question is modal: answer No
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w)) {
                    asked = box->text();
                    box->button(QMessageBox::No)->click();
                }
        });
        p.start();
        QVERIFY2(QRegularExpression("replaces what metrics.csv logged \\([1-9]\\d* steps\\)").match(asked).hasMatch(),
                 qPrintable(asked));
        QVERIFY(!p.isBusy());
        QCOMPARE(twb::read_file((run + "/metrics.csv").toStdString()), before);

        const QString moved = twbtest::make_tiny_run(m_ws, "moved", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(p.openRun(moved));
        QVERIFY(QDir().rename(moved, moved + "-elsewhere"));
        p.trainMore(10);
        QVERIFY2(p.lastError().contains("is gone (moved or deleted)"), qPrintable(p.lastError()));
        QCOMPARE(p.currentRun(), moved);  // still the run it was, not a new one
        p.start();
        QVERIFY2(p.lastError().contains("is gone (moved or deleted)"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(moved));
    }

    void aFailureNamesTheLastCheckpointNotTheStepItWasWriting() {
        // A full disk while step 60's checkpoint was written left "step 60 / 60" on the bar, step 40 the last
        // checkpoint on disk.
        const QString run = twbtest::make_tiny_run(m_ws, "failed", 20);
        Workspace::setRoot(m_ws.path());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        // The evaluation before the failed checkpoint was the best so far; its checkpoint never came.
        twb::EvalReport e;
        e.step = 40;
        e.val_loss = 1.5;
        e.is_best = true;
        emit p.worker()->evaluated(e);
        auto* eval = p.findChild<SteadyLabel*>("evalReadout");
        QVERIFY2(eval->text().contains("(best so far)"), qPrintable(eval->text()));
        emit p.worker()->failed("checkpoint: write failed (disk full?)");
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.contains("its last checkpoint is step 20"), qPrintable(status));
        QCOMPARE(p.findChild<QProgressBar*>("progress")->value(), 20);
        QVERIFY2(p.lastError().contains("disk full"), qPrintable(p.lastError()));
        QVERIFY2(eval->text().startsWith("Last evaluation (step 40)") && !eval->text().contains("best so far") &&
                     eval->text().contains("no checkpoint of this step on disk"),
                 qPrintable(eval->text()));
    }

    void whyStartIsOffIsSaidUnderIt() {
        // Start was greyed out with the reason in its tooltip only: Steps lowered below the step the run
        // stands at, and the dataset's Browse… stayed on while training (a folder chosen there made the
        // running run a new one).
        const QString run = twbtest::make_tiny_run(m_ws, "lowered", 20);
        auto cfg = twb::read_run_config(run.toStdString());
        cfg.max_iters = 40;  // stopped at step 20 of 40
        twb::write_file_atomic(run.toStdString() + "/config.json", nlohmann::json(cfg).dump(2));
        Workspace::setRoot(m_ws.path());
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        auto* start = p.findChild<QPushButton*>("start");
        auto* why = p.findChild<QLabel*>("startWhy");
        QVERIFY(start->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        twbtest::set_spin(p.form(), "max_iters", 15);
        QVERIFY(!start->isEnabled());
        QVERIFY2(why->isVisibleTo(&p) && why->text().contains("Steps (15) is not above step 20"),
                 qPrintable(why->text()));
        QVERIFY(!p.findChild<QWidget*>("trainMore")->isVisibleTo(&p));  // not finished: no Train more to point to
        twbtest::set_spin(p.form(), "max_iters", 30);
        QVERIFY(start->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        QSignalSpy done(p.worker(), &TrainWorker::finished), failed(p.worker(), &TrainWorker::failed);
        p.start();
        QVERIFY(p.isBusy());
        QVERIFY(!p.findChild<QComboBox*>("dataset")->isEnabled());
        for (auto* b : p.findChildren<QPushButton*>())
            if (b->text() == "Browse…")
                QVERIFY(!b->isEnabled());
        QVERIFY(!why->isVisibleTo(&p));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() || !failed.isEmpty(), 60000);
        QTRY_VERIFY(!p.isBusy());
        // Finished at its own Steps: the reason points to Train more, which is there.
        QVERIFY(p.findChild<QWidget*>("trainMore")->isVisibleTo(&p));
        QVERIFY2(why->text().contains("Train more"), qPrintable(why->text()));
    }
    void aRunWithoutCurvesSaysWhy() {
        // An emptied metrics.csv (a full disk) showed empty plots and "Finished at step 20." only.
        const QString run = twbtest::make_tiny_run(m_ws, "no-curves", 20);
        Workspace::setRoot(m_ws.path());
        QVERIFY(QFile(run + "/metrics.csv").resize(0));
        TrainingPanel p;
        QVERIFY(p.openRun(run));
        const QString status = p.findChild<SteadyLabel*>("status")->text();
        QVERIFY2(status.contains("Its metrics.csv is empty, so no curves are shown"), qPrintable(status));
        QVERIFY(QFile::remove(run + "/metrics.csv"));
        QVERIFY(p.openRun(run));
        QVERIFY2(p.findChild<SteadyLabel*>("status")->text().contains("Its metrics.csv is missing"),
                 qPrintable(p.findChild<SteadyLabel*>("status")->text()));
    }

    void epochsAreOfferedForAnEncoderDecoderOnly() {
        // "x in: epochs" did nothing for a decoder LM (its curves stay in steps): the choice shows for the
        // encoder-decoder only.
        TrainingPanel p;
        auto* x = p.findChild<QComboBox*>("xAxis");
        QVERIFY(!x->isVisibleTo(&p));
        p.form()->applyPreset("multi30k");
        QVERIFY(x->isVisibleTo(&p));
        p.form()->applyPreset("tiny");
        QVERIFY(!x->isVisibleTo(&p));
    }
};

QTEST_MAIN(TestTrainingStatus)
#include "tst_training_status.moc"
