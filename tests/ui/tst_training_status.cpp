// What the training panel's status line says of a run beyond its steps: a dataset whose validation split
// is shorter than a block is evaluated on its training split, and the line says so at start and finish
// instead of calling training-data figures "val loss".
#include "test_util.h"
#include "twb/dataset.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/SteadyLabel.h"
#include "ui_fixture.h"

#include <QComboBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>

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
