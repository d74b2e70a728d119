// File → Export model… driven offscreen: a GPT-2-architecture run with a byte-level BPE tokenizer is
// exported as GGUF (the file appears, starts with GGUF's magic and version 3, and the dialog names it);
// the same run is exported as a Hugging Face GPT-2 folder; a run with rotary positions and a char
// tokenizer gets the GGUF and HF formats disabled with the option named in the tooltip and in the
// dialog's line, the plain safetensors export stays open; the output folder and format are remembered;
// after an export the dialog grows for its status line, so the wrapped reasons keep every line; the
// export runs as a job of the JobsService the dialog is given, listed and not cancellable.
// File → Import model… brings a Hugging Face folder back as a run of the workspace: the name suggested
// from the folder (made unique), the run's architecture that of the model exported, the job listed, the
// Training panel calling it an imported model; a
// folder without config.json, a missing folder and a name in use are refused with the reason, and leave
// no run behind.
#include "ui/jobs/JobsService.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ExportDialog.h"
#include "ui/widgets/ExportReasonText.h"
#include "ui/widgets/ImportDialog.h"
#include "ui/widgets/RunPicker.h"
#include "ui_fixture.h"

#include "twb/gguf_check.h"
#include "twb/gguf_export.h"
#include "twb/model_exchange.h"
#include "twb/run_folder.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTranslator>

#include <functional>

class TestExportDialog : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_gpt2, m_rotary;

    /// A bytebpe dataset and a few steps of a GPT-2-architecture run on it, through the engine API.
    QString make_gpt2_run() {
        const auto data = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "bpe";
        twbtest::write(twbtest::path(m_ws, "b.txt"), twbtest::english_like(30000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_ws, "b.txt").string()};
        o.out = data;
        o.tokenizer.kind = twb::TokenizerKind::ByteBpe;
        o.tokenizer.vocab_size = 300;
        twb::prepare_dataset(o);
        twb::RunConfig c = twb::preset_config("tiny");
        c.data_dir = data.string();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = 4;
        c.eval_interval = 2;
        c.eval_iters = 1;
        c.threads = 1;
        c.position = twb::Position::Learned;
        c.activation = twb::Activation::GeluTanh;
        c.bias = true;
        twb::TrainJob job;
        job.config = c;
        job.run_dir = (Workspace::runsDir() + "/gpt2").toStdString();
        twb::train(job);
        return QString::fromStdString(job.run_dir);
    }

    static bool enabled(ExportDialog& d, int i) {
        return qobject_cast<QStandardItemModel*>(d.formatBox()->model())->item(i)->isEnabled();
    }

private slots:
    void initTestCase() {
        m_rotary = twbtest::make_tiny_run(m_ws, "rotary", 10);  // char tokenizer, rotary positions
        m_gpt2 = make_gpt2_run();
    }

    void exportsGgufAndNamesTheFile() {
        ExportDialog d(m_gpt2);
        QSignalSpy checked(&d, &ExportDialog::checked);
        QVERIFY(checked.wait(30000));
        QCOMPARE(d.picker()->run(), m_gpt2);  // the open run preselected
        QCOMPARE(d.reasons(), QString());     // every format usable
        QVERIFY(enabled(d, 0) && enabled(d, 1));
        QVERIFY(d.selectFormat("gguf-f16"));
        const QString out = m_ws.filePath("out/model.gguf");
        d.outputEdit()->setText(out);
        QSignalSpy done(&d, &ExportDialog::exported);
        d.startExport();
        QVERIFY(d.isBusy());
        QVERIFY(done.wait(60000));
        QVERIFY2(d.error().isEmpty(), qPrintable(d.error()));
        QCOMPARE(done.at(0).at(0).toString(), out);
        QVERIFY2(d.status().contains(QDir::toNativeSeparators(out)), qPrintable(d.status()));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(8);
        QCOMPARE(head.left(4), QByteArray("GGUF"));
        QCOMPARE(head.at(4), char(3));  // version 3, little-endian
        // The same bytes as the engine's own export of that checkpoint.
        const QString again = m_ws.filePath("again.gguf");
        twb::GgufOptions g;
        g.f16 = true;
        twb::export_gguf(m_gpt2.toStdString(), "best", again.toStdString(), g);
        QFile a(again);
        QVERIFY(a.open(QIODevice::ReadOnly));
        f.seek(0);
        QVERIFY(f.readAll() == a.readAll());
        // remembered: the folder and the format
        ExportDialog d2(m_gpt2);
        QVERIFY(QSignalSpy(&d2, &ExportDialog::checked).wait(30000));
        QCOMPARE(d2.formatBox()->currentData().toString(), QString("gguf-f16"));
        QVERIFY2(d2.outputEdit()->text().startsWith(m_ws.filePath("out")), qPrintable(d2.outputEdit()->text()));
    }

    void exportsTheHuggingFaceFolder() {
        JobsService jobs;
        ExportDialog d(m_gpt2, &jobs);
        QVERIFY(QSignalSpy(&d, &ExportDialog::checked).wait(30000));
        QVERIFY(d.selectFormat("hf"));
        const QString out = m_ws.filePath("out/hf");
        d.outputEdit()->setText(out);
        QSignalSpy done(&d, &ExportDialog::exported);
        d.startExport();
        // The export is a job of the service it was given, listed (titled) and without a Cancel, since
        // the engine's writers cannot stop part-way; asking it to stop changes nothing.
        QCOMPARE(jobs.running().size(), 1);
        Job* job = jobs.running().first();
        QVERIFY2(job->title().contains("Exporting"), qPrintable(job->title()));
        QVERIFY(!job->isQuiet());
        QVERIFY(!job->isCancellable());
        job->cancel();
        QVERIFY(done.wait(60000));
        QVERIFY2(d.error().isEmpty(), qPrintable(d.error()));
        for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
            QVERIFY2(QFile::exists(out + "/" + f), f);
    }

    void importsAHuggingFaceFolderAsARun() {
        const QString hf = m_ws.filePath("gpt2-hf");
        twb::export_hf(m_gpt2.toStdString(), hf.toStdString());
        JobsService jobs;
        ImportDialog d(&jobs);
        d.startImport();  // nothing chosen yet
        QVERIFY2(d.error().contains("folder"), qPrintable(d.error()));
        QVERIFY(jobs.running().isEmpty());
        d.setFolder(m_ws.filePath("no-such-folder"));
        d.startImport();
        QVERIFY2(d.error().contains("not a folder"), qPrintable(d.error()));

        d.setFolder(hf);
        QCOMPARE(d.nameEdit()->text(), QString("gpt2-hf"));
        QSignalSpy done(&d, &ImportDialog::imported);
        d.startImport();
        QVERIFY(d.isBusy());
        QCOMPARE(jobs.running().size(), 1);
        QVERIFY2(jobs.running().first()->title().contains("Importing gpt2-hf"),
                 qPrintable(jobs.running().first()->title()));
        QTRY_VERIFY_WITH_TIMEOUT(!d.isBusy(), 60000);
        QVERIFY2(d.error().isEmpty(), qPrintable(d.error()));
        QCOMPARE(done.count(), 1);
        const QString run = QDir(Workspace::runsDir()).filePath("gpt2-hf");
        QCOMPARE(done.at(0).at(0).toString(), run);
        QVERIFY2(
            d.status().contains("a language model: 1 layers") && d.status().contains(QDir::toNativeSeparators(run)),
            qPrintable(d.status()));
        const twb::RunConfig got = twb::read_run_config(run.toStdString()),
                             want = twb::read_run_config(m_gpt2.toStdString());
        QCOMPARE(got.n_layer, want.n_layer);
        QCOMPARE(got.n_embd, want.n_embd);
        QCOMPARE(got.n_head, want.n_head);
        QCOMPARE(got.vocab_size, want.vocab_size);
        QVERIFY(!twb::list_checkpoints(run.toStdString()).empty());
        // opened in the Training panel (as the main window does), it is said to be an imported model, not
        // a run interrupted at step 0
        TrainingPanel panel;
        QVERIFY(panel.openRun(run));
        const QString said = panel.findChild<QLabel*>("status")->text();
        QVERIFY2(said.contains("imported model") && !said.contains("Interrupted"), qPrintable(said));

        // the name is taken now: the next suggestion differs, and the taken name is refused
        d.setFolder(hf);
        QCOMPARE(d.nameEdit()->text(), QString("gpt2-hf-2"));
        d.nameEdit()->setText("gpt2-hf");
        d.startImport();
        QVERIFY2(d.error().contains("exists already"), qPrintable(d.error()));
        QVERIFY(!d.isBusy());

        // a folder that holds no model: the engine's reason names the file, and no run is left
        QVERIFY(QDir().mkpath(m_ws.filePath("not-a-model")));
        d.setFolder(m_ws.filePath("not-a-model"));
        QSignalSpy failed(&d, &ImportDialog::failed);
        d.startImport();
        QTRY_VERIFY_WITH_TIMEOUT(!d.isBusy(), 60000);
        QCOMPARE(failed.count(), 1);
        QVERIFY2(d.error().contains("config.json"), qPrintable(d.error()));
        QVERIFY2(d.status().isEmpty(), qPrintable(d.status()));  // no "Importing … as …" beside the error
        QVERIFY(!QDir(QDir(Workspace::runsDir()).filePath("not-a-model")).exists());
    }

    void aBlockedFormatShowsItsReason() {
        ExportDialog d(m_rotary);
        QVERIFY(QSignalSpy(&d, &ExportDialog::checked).wait(30000));
        QVERIFY(!enabled(d, 0) && !enabled(d, 1) && !enabled(d, 2));  // GGUF f32, f16, the HF folder
        QVERIFY(enabled(d, 3));                                       // the plain export holds any architecture
        QVERIFY(qobject_cast<QStandardItemModel*>(d.formatBox()->model())->item(2)->toolTip().contains("rotary"));
        const QString reason = qobject_cast<QStandardItemModel*>(d.formatBox()->model())->item(0)->toolTip();
        QVERIFY2(reason.contains("position=rotary"), qPrintable(reason));
        // said in the form's words ("train with position=learned" was the command line's)
        QVERIFY2(d.reasons().contains("Positions = learned") && !d.reasons().contains("position="),
                 qPrintable(d.reasons()));
        QVERIFY2(d.reasons().startsWith("Not available for this run:\n• GGUF (llama.cpp, gpt2), f32 and GGUF"),
                 qPrintable(d.reasons()));
        // the dialog moves to the first usable format; a blocked one cannot be chosen, and forced onto
        // it (as a remembered format could be), the export refuses with the reason
        QCOMPARE(d.formatBox()->currentData().toString(), QString("safetensors"));
        QVERIFY(!d.selectFormat("gguf-f32"));
        d.formatBox()->setCurrentIndex(0);
        d.outputEdit()->setText(m_ws.filePath("rotary.gguf"));
        d.startExport();
        QVERIFY(!d.isBusy());
        QVERIFY2(d.error().contains("position=rotary"), qPrintable(d.error()));
        QVERIFY(!QFile::exists(m_ws.filePath("rotary.gguf")));
    }

    /// Grown for its reasons near the screen's foot, the dialog moves up: on a 1280x720 screen at 150% text its
    /// Export and Close went below the screen.
    void theDialogGrowsUpOffTheScreensFoot() {
        ExportDialog d(m_gpt2);  // every format usable: no reasons
        QSignalSpy checked(&d, &ExportDialog::checked);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() > 0, 30000);
        const QRect room = d.screen()->availableGeometry();
        d.resize(d.minimumSizeHint());
        QApplication::processEvents();
        d.move(d.x(), room.bottom() - d.frameGeometry().height() - 2);  // its foot just above the screen's
        QTRY_VERIFY(d.frameGeometry().bottom() > room.bottom() - 6 && d.frameGeometry().bottom() <= room.bottom());
        const int before = d.height();
        d.picker()->setRun(m_rotary);  // three formats blocked, and why: lines to grow for
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() > 1, 30000);
        QVERIFY2(d.height() > before, qPrintable(QString("%1 → %2").arg(before).arg(d.height())));
        auto* exportButton = d.findChild<QPushButton*>("exportButton");
        QTRY_VERIFY2(d.frameGeometry().bottom() <= room.bottom() &&
                         exportButton->mapToGlobal(QPoint(0, exportButton->height())).y() <= room.bottom() + 1,
                     qPrintable(QString("dialog %1..%2 on a screen to %3")
                                    .arg(d.frameGeometry().top())
                                    .arg(d.frameGeometry().bottom())
                                    .arg(room.bottom())));
        QVERIFY(d.frameGeometry().top() >= room.top());
    }

    /// Every reason a format is not available reads in Bokmål, its settings kept for the dialog's form words:
    /// in Bokmål the dialog said "Posisjoner = rotary: GPT-2 has learned positions".
    void everyReasonReadsInBokmal() {
        auto gpt2 = [] {
            twb::RunConfig c = twb::preset_config("tiny");
            c.position = twb::Position::Learned, c.activation = twb::Activation::GeluTanh, c.bias = true;
            return c;
        };
        auto marian = [] {
            twb::RunConfig c = twb::preset_config("tiny");
            c.model_kind = twb::ModelKind::EncoderDecoder, c.position = twb::Position::Sinusoidal;
            c.sinusoid_halves = true, c.norm_position = twb::NormPosition::Post, c.bias = true;
            return c;
        };
        QVERIFY(twb::hf_export_blocker(gpt2()).empty() && twb::gguf_export_blocker(gpt2()).empty());
        QVERIFY(twb::hf_export_blocker(marian()).empty());
        const std::vector<std::function<void(twb::RunConfig&)>> changes = {
            [](twb::RunConfig& c) { c.position = twb::Position::Rotary; },
            [](twb::RunConfig& c) { c.position = twb::Position::Learned; },
            [](twb::RunConfig& c) { c.norm = twb::NormKind::RmsNorm; },
            [](twb::RunConfig& c) { c.norm_position = twb::NormPosition::Post; },
            [](twb::RunConfig& c) { c.norm_position = twb::NormPosition::Pre; },
            [](twb::RunConfig& c) { c.norm_eps = 1e-6; },
            [](twb::RunConfig& c) { c.bias = false; },
            [](twb::RunConfig& c) { c.qk_norm = true; },
            [](twb::RunConfig& c) { c.activation = twb::Activation::Relu; },
            [](twb::RunConfig& c) { c.source_vocab_size = 50; },
            [](twb::RunConfig& c) { c.head_size = c.n_embd / c.n_head + 2; },
            [](twb::RunConfig& c) { c.model_kind = twb::ModelKind::Decoder; },
        };
        QStringList engine;
        for (const auto& change : changes)
            for (const twb::RunConfig& base : {gpt2(), marian()}) {
                twb::RunConfig c = base;
                change(c);
                for (const std::string& r : {twb::hf_export_blocker(c), twb::gguf_export_blocker(c)})
                    if (!r.empty() && !engine.contains(QString::fromStdString(r)))
                        engine << QString::fromStdString(r);
            }
        engine << QString::fromStdString(twb::gguf_run_blocker(m_rotary.toStdString()));  // a char tokenizer
        QVERIFY2(engine.size() >= 20, qPrintable(engine.join('\n')));
        const QRegularExpression english(
            "\\b(has|have|uses|normalises|before|after|each|sublayer|layers|biases|no|"
            "queries|is|an|with|train|needs|leave|reads|only|prepare|again|knows|writes|"
            "shared|both|sides|heads|wide|fixed|sinusoids|halves|approximation)\\b");
        QTranslator nb;
        QVERIFY(nb.load(":/i18n/workbench_nb.qm"));
        QCoreApplication::installTranslator(&nb);
        const auto remove = qScopeGuard([&] { QCoreApplication::removeTranslator(&nb); });
        QStringList untranslated;
        for (const QString& r : engine) {
            const QString said = exportReasonText(r);
            // the settings stay as the engine spells them ("position=rotary"), for the dialog's form words
            QVERIFY2(said.section(':', 0, 0) == r.section(':', 0, 0), qPrintable(said));
            if (said.contains(english))
                untranslated << r + " → " + said;
        }
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join('\n')));
    }

    /// After an export the status line takes room: the dialog grows for it, so the wrapped explanation
    /// keeps every line (it was cut mid-sentence and its Hugging Face line was squeezed out).
    void theReasonsStayWholeAfterAnExport() {
        ExportDialog d(m_rotary);
        QSignalSpy checked(&d, &ExportDialog::checked);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() > 0, 30000);
        QVERIFY2(d.reasons().contains("Hugging Face"), qPrintable(d.reasons()));
        auto* reasons = d.findChild<QLabel*>("exportReasons");
        auto* status = d.findChild<QLabel*>("exportStatus");
        auto fits = [](QLabel* l) { return l->isVisible() && l->height() >= l->heightForWidth(l->width()); };
        auto whole = [&] { return fits(reasons) && (status->text().isEmpty() || fits(status)); };
        QTRY_VERIFY(whole());
        QVERIFY(d.selectFormat("safetensors"));
        d.outputEdit()->setText(m_ws.filePath("out/rotary.safetensors"));
        QSignalSpy done(&d, &ExportDialog::exported);
        auto* exportButton = d.findChild<QPushButton*>("exportButton");
        QApplication::processEvents();
        const int buttonsAt = exportButton->mapTo(&d, QPoint()).y();
        d.startExport();
        QVERIFY(done.wait(60000));
        QVERIFY2(d.status().startsWith("Wrote"), qPrintable(d.status()));
        QVERIFY2(d.reasons().contains("Hugging Face"), qPrintable(d.reasons()));
        // A result of two lines moves no button (Export and Close went down under the mouse: the progress bar
        // and the result grew the dialog)
        QApplication::processEvents();
        if (status->heightForWidth(status->width()) <= 2 * status->fontMetrics().lineSpacing())
            QCOMPARE(exportButton->mapTo(&d, QPoint()).y(), buttonsAt);
        QTRY_VERIFY2(whole(), qPrintable(QString("reasons %1 px high, need %2; status %3 px high, need %4")
                                             .arg(reasons->height())
                                             .arg(reasons->heightForWidth(reasons->width()))
                                             .arg(status->height())
                                             .arg(status->heightForWidth(status->width()))));
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_export_dialog.moc"
