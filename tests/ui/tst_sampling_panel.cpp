// The sampling console driven offscreen over a tiny trained run: tokens stream in, Stop ends a long
// generation early (and the history records it as stopped), greedy is reproducible, branching continues from the chosen
// alternative, the comparison has one column per checkpoint (and, with a judge run, each cell's perplexity under it:
// the engine's own number; the texts get most of the width), history is kept with the run, and a prompt the tokenizer
// cannot encode gives a message naming the characters.
#include "ui/Workspace.h"
#include "ui/sampling/AttributionStrip.h"
#include "ui/sampling/CompareView.h"
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/HistoryView.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/widgets/ElidingComboBox.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TextScale.h"
#include "ui/workers/ModelThread.h"
#include "ui/workers/ModelWorker.h"
#include "ui_fixture.h"

#include "twb/run_folder.h"
#include "twb/samples_history.h"
#include "twb/session.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSpinBox>
#include <QTextBrowser>

#include <QTableWidget>
#include <QToolButton>

class TestSamplingPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    static void waitIdle(SamplingPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }
    /// The run's history as the engine reads it (RUN/samples.jsonl).
    std::vector<twb::SampleRecord> history() const { return twb::read_sample_history(m_run.toStdString()); }
    static QString q(const std::string& s) { return QString::fromStdString(s); }
    /// The Generate tab's output (the panel holds another view, the translation console's).
    static TokenOutputView* outputView(const SamplingPanel& p) {
        for (auto* v : p.findChildren<TokenOutputView*>())
            if (v->browser()->objectName() == "output")
                return v;
        return nullptr;
    }

private slots:
    void initTestCase() { m_run = twbtest::make_tiny_run(m_ws); }

    void decodingFormOffersStopStringsAndNoRepeatNgram() {
        {
            DecodingForm f;
            f.findChild<QSpinBox*>("noRepeatNgram")->setValue(3);
            f.findChild<QLineEdit*>("stopStrings")->setText(" THE END | \\n\\n|");
            const auto o = f.options();
            QCOMPARE(o.no_repeat_ngram, 3);
            QCOMPARE(o.stop_strings,
                     (std::vector<std::string>{"THE END", "\n\n"}));  // trimmed, \n unescaped, empties dropped
            // The form remembers both when it goes: back to none, or every later panel's generation stops
            // at the first blank line (stopEndsEarly then saw a generation end early without a Stop).
            f.findChild<QSpinBox*>("noRepeatNgram")->setValue(0);
            f.findChild<QLineEdit*>("stopStrings")->clear();
        }
        DecodingForm again;
        QCOMPARE(again.options().no_repeat_ngram, 0);
        QVERIFY(again.options().stop_strings.empty());
    }
    void historyButtonsActOnAChosenEntry() {
        // "Export…" with nothing chosen wrote an empty file without a word; both wait for an entry now.
        HistoryView h;
        auto* use = h.findChild<QPushButton*>("historyUse");
        auto* exportOut = h.findChild<QPushButton*>("historyExport");
        QVERIFY(use && exportOut);
        // A run with no generations says so in the empty page (two blank boxes)
        auto* text = h.findChild<QPlainTextEdit*>("historyText");
        QVERIFY2(text->placeholderText().startsWith("No generations"), qPrintable(text->placeholderText()));
        twb::SampleRecord r;
        r.prompt = "The cat";
        r.outputs = {" sat."};
        r.time = "2026-11-28T01:00:00";
        h.setRecords({r});
        QVERIFY(!use->isEnabled() && !exportOut->isEnabled());
        h.findChild<QListWidget*>()->setCurrentRow(0);
        QVERIFY(use->isEnabled() && exportOut->isEnabled());
        QVERIFY(h.findChild<QListWidget*>()->item(0)->toolTip().contains("The cat"));
        r.prompt.clear();  // an empty prompt is said ("T=0.8 ·" ended in nothing)
        h.setRecords({r});
        QVERIFY2(h.findChild<QListWidget*>()->item(0)->text().endsWith("· (no prompt)"),
                 qPrintable(h.findChild<QListWidget*>()->item(0)->text()));
    }
    void presetShowsWhatTheValuesAre() {
        // A fresh start's values are `twb sample`'s defaults, and the preset says so (it said Custom).
        QSettings().remove("sampling");
        DecodingForm f;
        auto* preset = f.findChild<QComboBox*>("decodingPreset");
        QVERIFY(preset);
        QCOMPARE(preset->currentText(), QString("Default (as twb sample)"));
        f.setTemperature(0);
        QCOMPARE(preset->currentText(), QString("Precise (greedy)"));
        f.findChild<QDoubleSpinBox*>("temperature")->setValue(0.7);
        QCOMPARE(preset->currentText(), QString("Custom"));
        f.setTemperature(0.8);  // back to the defaults
        QCOMPARE(preset->currentText(), QString("Default (as twb sample)"));
    }
    void decodeWeightsAreChosenAndRemembered() {
        {
            DecodingForm f;
            auto* w = f.findChild<QComboBox*>("decodeWeights");
            QCOMPARE(f.options().decode_weights, twb::DecodeWeights::Auto);
            w->setCurrentIndex(w->findData("float32"));
            QCOMPARE(f.options().decode_weights, twb::DecodeWeights::Float32);
        }
        DecodingForm again;
        QCOMPARE(again.options().decode_weights, twb::DecodeWeights::Float32);
        auto* w = again.findChild<QComboBox*>("decodeWeights");
        w->setCurrentIndex(w->findData("auto"));
    }
    void greedyStreamsAndIsReproducible() {
        SamplingPanel p;
        p.setRun(m_run);
        QCOMPARE(p.picker()->run(), m_run);
        p.setPrompt("the ");
        p.setTemperature(0);
        p.setMaxTokens(40);
        p.setSamples(1);
        p.generate();
        QVERIFY(p.isBusy());
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.output().samples.size(), qsizetype(1));
        QCOMPARE(p.output().samples[0].size(), qsizetype(40));
        const QString first = p.outputText();
        QVERIFY(!first.isEmpty());
        // every token carries its probability and alternatives, the chosen one the most probable (greedy)
        for (const auto& t : p.output().samples[0]) {
            QVERIFY(t.prob > 0 && t.prob <= 1.0);
            QVERIFY(!t.altIds.isEmpty());
            QCOMPARE(t.altIds[0], t.id);
        }
        p.generate();
        waitIdle(p);
        QCOMPARE(p.outputText(), first);
        // the history kept with the run has both generations
        QTRY_COMPARE(history().size(), size_t(2));
        QCOMPARE(q(history().back().outputs[0]), first);
    }

    void stopEndsEarly() {
        ModelThread model;
        SamplingPanel p(&model);
        p.setRun(m_run);
        p.setPrompt("a");
        p.setTemperature(1.0);
        p.setMaxTokens(100000);
        const size_t before = history().size();
        // Stop is pressed once the worker has made five tokens, from the worker's thread: the UI, on a
        // loaded machine, can take its fifth token long after the worker made it (and a stop string
        // left in the settings by another test once ended the generation first).
        std::atomic<int> made{0};
        connect(
            model.worker(), &ModelWorker::token, model.worker(),
            [&](quint64, const UiToken&) {
                if (++made == 5)
                    p.stop();
            },
            Qt::DirectConnection);
        p.generate();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto n = p.output().samples[0].size();
        QVERIFY2(n >= 5 && n < 100000, qPrintable(QString::number(n)));
        QTRY_COMPARE(history().size(), before + 1);
        QVERIFY2(history().back().cancelled, qPrintable(p.findChild<QLabel*>("samplingStatus")->text()));
    }

    void branchContinuesFromChosenToken() {
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(0);
        p.setMaxTokens(30);
        p.generate();
        waitIdle(p);
        const auto before = p.output().samples[0];
        const int at = 5;
        QVERIFY(before[at].altIds.size() >= 2);
        const int altId = before[at].altIds[1];  // the second most probable token, not the one taken
        QVERIFY(altId != before[at].id);
        const QString firstStatus = p.findChild<QLabel*>("samplingStatus")->text();
        QVERIFY(!firstStatus.isEmpty());
        // The line wraps between its parts only: "4759.2 tok/s" never loses its unit to the next line.
        QVERIFY2(firstStatus.contains(QStringLiteral("\u00A0tok/s")) && !firstStatus.contains(" tok/s"),
                 qPrintable(firstStatus));
        emit outputView(p)->tokenClicked(0, at);  // the attribution strip explains the token about to be replaced
        QVERIFY(!p.attribution()->isHidden());
        p.branch(at, 1);
        QVERIFY(p.attribution()->isHidden());  // it no longer explains the replaced token
        QVERIFY(p.isBusy());
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto after = p.output().samples[0];
        for (int i = 0; i < at; ++i)
            QCOMPARE(after[i].id, before[i].id);
        QCOMPARE(after[at].id, altId);
        QCOMPARE(after.size(), before.size());  // same total length: the branch generates the rest
        QCOMPARE(p.branchDepth(), 1);
        // Numbered as the token's title numbers it, from 1 ("Token #6" was "branch at token 5")
        QVERIFY2(p.output().label.startsWith(QString("branch at token #%1:").arg(at + 1)),
                 qPrintable(p.output().label));
        // greedy continuation after the new token differs from the original continuation somewhere
        bool differs = false;
        for (int i = at + 1; i < after.size(); ++i)
            differs |= after[i].id != before[i].id;
        QVERIFY(differs);
        p.back();
        QCOMPARE(p.branchDepth(), 0);
        QCOMPARE(p.output().samples[0][at].id, before[at].id);
        QCOMPARE(p.findChild<QLabel*>("samplingStatus")->text(), firstStatus);  // not the branch's figures
    }

    void exportingAnEmptyComparisonIsRefused() {
        // It wrote a file holding only "Prompt: ``" and an empty table, and said it had.
        SamplingPanel p;
        p.setRun(m_run);
        p.resize(1280, 680);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* generate = p.findChild<QPushButton*>("generate");
        const int y = generate->mapTo(&p, QPoint()).y();
        p.exportMarkdown();  // no dialog: refused before one
        QVERIFY2(p.lastError().startsWith("Nothing to export yet"), qPrintable(p.lastError()));
        QVERIFY(p.findChild<QLabel*>("comparePromptNote")->text().contains("Generate tab's prompt"));
        // the error takes its room from the texts above it: Generate stays where it was (it moved up 20 px)
        QApplication::processEvents();
        QCOMPARE(generate->mapTo(&p, QPoint()).y(), y);
    }
    void aRefusedPromptsMessageGoesWhenThePromptChanges() {
        // "The text has characters the character vocabulary lacks" stayed after the prompt was cleared.
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt(QString::fromUtf8("\u2603\u2603"));  // snowmen: not in the tiny run's characters
        p.setMaxTokens(5);
        p.generate();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("vocabulary lacks"), qPrintable(p.lastError()));
        p.setPrompt("the ");
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        // a message of another kind stays
        p.exportMarkdown();
        p.setPrompt("th");
        QVERIFY(p.lastError().startsWith("Nothing to export yet"));
    }
    void theKeyboardWalksTheOutputAndLeavesIt() {
        // Tab typed tabs into the prompt, and stepped through every token of the output (thousands of
        // stops); Left and Right now choose the token before and after, as a click does.
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(0);
        p.setMaxTokens(10);
        p.resize(1280, 680);
        p.show();
        QVERIFY(QTest::qWaitForWindowActive(&p));
        p.generate();
        waitIdle(p);
        auto* prompt = p.findChild<QPlainTextEdit*>("prompt");
        prompt->setFocus();
        QTest::keyClick(prompt, Qt::Key_Tab);
        QCOMPARE(prompt->toPlainText(), QString("the "));
        QVERIFY(!prompt->hasFocus());
        TokenOutputView* out = outputView(p);
        QVERIFY(out);
        out->browser()->setFocus();
        QTest::keyClick(out->browser(), Qt::Key_Right);
        QCOMPARE(out->selectedIndex(), 0);
        QTest::keyClick(out->browser(), Qt::Key_Right);
        QCOMPARE(out->selectedIndex(), 1);
        QTest::keyClick(out->browser(), Qt::Key_Left);
        QCOMPARE(out->selectedIndex(), 0);
        QTest::keyClick(out->browser(), Qt::Key_Left);  // the first token: it stays chosen
        QCOMPARE(out->selectedIndex(), 0);
        QVERIFY(out->findChild<QListWidget*>("alternatives")->count() > 0);  // its alternatives, as a click shows
        {  // in the interface's number format, as the title's "p = 0,192" (the list read "0.192")
            QLocale::setDefault(QLocale(QLocale::NorwegianBokmal, QLocale::Norway));
            const auto restore = qScopeGuard([] { QLocale::setDefault(QLocale::c()); });
            QTest::keyClick(out->browser(), Qt::Key_Right);
            const QString first = out->findChild<QListWidget*>("alternatives")->item(0)->text().trimmed();
            QVERIFY2(first.startsWith("0,") || first.startsWith("1,"), qPrintable(first));
        }
        QTest::keyClick(out->browser(), Qt::Key_Tab);
        QVERIFY(!out->browser()->hasFocus());
    }
    void generateNeedsARun() {
        // With no run in the workspace, Generate is off and its tooltip says what to do (the reason came
        // only after a click); a run chosen turns it on.
        QTemporaryDir empty;
        Workspace::setRoot(empty.path());
        SamplingPanel p;
        Workspace::setRoot(m_ws.path());
        auto* generate = p.findChild<QPushButton*>("generate");
        QVERIFY(generate && p.picker()->run().isEmpty());
        QVERIFY(!generate->isEnabled());
        QVERIFY2(generate->toolTip().contains("No run to sample from"), qPrintable(generate->toolTip()));
        p.setRun(m_run);
        QVERIFY(generate->isEnabled());
    }
    void aRunWithoutABestCheckpointOpensOnItsLast() {
        // A run stopped before an evaluation at a checkpoint has no best: the picker offers "last" first
        // (it offered "best", and every panel refused with "no best checkpoint recorded yet").
        RunPicker picker;
        picker.setRun(m_run);
        auto* ck = picker.findChild<QComboBox*>("checkpointCombo");
        QVERIFY2(ck->itemText(0).startsWith("best (step "), qPrintable(ck->itemText(0)));
        QCOMPARE(picker.checkpoint(), QString("best"));
        QTemporaryDir copy;
        const QString run = copy.path() + "/run";
        QVERIFY(QProcess::execute("cp", {"-r", m_run, run}) == 0);
        QVERIFY(QFile::remove(run + "/checkpoints/best.json"));
        picker.setRun(run);
        QCOMPARE(picker.checkpoint(), QString("last"));
        QCOMPARE(ck->findData("best"), -1);
        QCOMPARE(QString::fromStdString(
                     twb::find_checkpoint(run.toStdString(), picker.checkpoint().toStdString()).filename().string()),
                 QString::fromStdString(twb::checkpoint_dir_name(twb::list_checkpoints(run.toStdString()).back())));
        // A run opened by hand in one picker is in every other's list, and in File → Recent runs.
        QCOMPARE(Workspace::recentRuns().value(0), QFileInfo(run).absoluteFilePath());
        RunPicker other;
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QVERIFY(other.findChild<QComboBox*>("runCombo")->findData(QFileInfo(run).absoluteFilePath()) >= 0);
        // And after a restart (View → Language's): a run opened in an earlier session, as File → Recent
        // runs has it, is in every picker's list; listed once, however its path is written.
        QTemporaryDir before;
        const QString earlier = before.path() + "/earlier";
        QVERIFY(QProcess::execute("cp", {"-r", m_run, earlier}) == 0);
        Workspace::addRecentRun(earlier + "/");
        Workspace::addRecentRun(earlier);
        RunPicker third;
        auto* list = third.findChild<QComboBox*>("runCombo");
        int found = 0;
        for (int i = 0; i < list->count(); ++i)
            found +=
                QFileInfo(list->itemData(i).toString()).canonicalFilePath() == QFileInfo(earlier).canonicalFilePath();
        QCOMPARE(found, 1);
    }
    void aRunWhoseFolderWentStaysChosenAndSaysSo() {
        // Another run was chosen without a word, and sampled into, when the chosen one's folder was moved.
        QTemporaryDir copy;
        const QString run = QFileInfo(copy.path() + "/run").absoluteFilePath();
        QVERIFY(QProcess::execute("cp", {"-r", m_run, run}) == 0);
        RunPicker picker;
        picker.setRun(run);
        QVERIFY(QDir().rename(run, run + "-moved"));
        picker.refresh();
        QCOMPARE(picker.run(), run);
        auto* box = picker.findChild<QComboBox*>("runCombo");
        QVERIFY2(box->currentText().endsWith("(folder gone)"), qPrintable(box->currentText()));
    }
    void theFiguresLineTakesTheRowsRoom() {
        // "300 tokens · 10,676.7 tok/s · step 150" wrapped over three lines beside a row of empty room,
        // pushing the buttons and the prompt up.
        SamplingPanel p;
        p.resize(1100, 640);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(20);
        p.generate();
        waitIdle(p);
        auto* status = p.findChild<QLabel*>("samplingStatus");
        QVERIFY(!status->text().isEmpty());
        QTRY_VERIFY2(status->height() < 2 * status->fontMetrics().lineSpacing(),
                     qPrintable(QString("%1 px for \"%2\"").arg(status->height()).arg(status->text())));
    }
    void runsThatReadAlikeAreToldApart() {
        // A copy of a workspace run opened from elsewhere read "tiny · small" twice in the list.
        QTemporaryDir copy;
        const QString run = QFileInfo(copy.path() + "/" + QFileInfo(m_run).fileName()).absoluteFilePath();
        QVERIFY(QProcess::execute("cp", {"-r", m_run, run}) == 0);
        RunPicker picker;
        picker.setRun(run);
        auto* box = picker.findChild<QComboBox*>("runCombo");
        QStringList texts;
        for (int i = 0; i < box->count(); ++i)
            texts << box->itemText(i);
        QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
        QVERIFY2(box->currentText().contains(copy.path()), qPrintable(box->currentText()));
        picker.refresh();  // and again once the list is read anew
        QVERIFY2(box->currentText().contains(copy.path()), qPrintable(box->currentText()));
    }
    void aClickedTokensProbabilityNamesItsTemperature() {
        // The side list's p is the sampler's, at the generation's temperature; the attribution strip gives
        // the model's at temperature 1. Without the temperature named the two seemed to disagree.
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(0.8);
        p.setMaxTokens(8);
        p.generate();
        waitIdle(p);
        TokenOutputView* view = outputView(p);
        QVERIFY(view);
        emit view->tokenClicked(0, 2);  // the third generated token: #3, counted from 1 as the attribution strip counts
        QString title;
        for (auto* l : view->findChildren<QLabel*>())
            if (l->text().startsWith("Token #3 "))
                title = l->text();
        const QString prob = QString::number(p.output().samples[0][2].prob, 'f', 3);
        QVERIFY2(title.contains("(p = " + prob + " at temperature 0.8)"), qPrintable(title));
        p.setTemperature(1);
        p.generate();
        waitIdle(p);
        emit view->tokenClicked(0, 2);
        for (auto* l : view->findChildren<QLabel*>())
            if (l->text().startsWith("Token #3 "))
                title = l->text();
        QVERIFY2(title.contains("(p = ") && !title.contains("temperature"), qPrintable(title));
        // With top-k 2 the alternatives past the second are greyed, never drawn (top-k 5 listed eight alike)
        p.findChild<QSpinBox*>("topK")->setValue(2);
        p.generate();
        waitIdle(p);
        emit view->tokenClicked(0, 2);
        auto* alts = view->findChild<QListWidget*>("alternatives");
        QVERIFY(alts->count() > 2);
        for (int k = 0; k < alts->count(); ++k)
            QCOMPARE(alts->item(k)->toolTip().contains("never draws"), k >= 2);
        // The two it draws: with their share of the two's probability (the list's figures are before the cut)
        const auto& tok = p.output().samples[0][2];
        for (int k = 0; k < 2; ++k)
            QVERIFY2(alts->item(k)->toolTip().startsWith(
                         QString("Drawn with p = %1 ")
                             .arg(tok.altProbs[k] / (tok.altProbs[0] + tok.altProbs[1]), 0, 'f', 3)),
                     qPrintable(alts->item(k)->toolTip()));
    }
    void alternativesStayReadableInLargerText() {
        // At 150% text the side list was one row under an eight-line title; back at 100% the title stood
        // halfway down a blank kept from the larger size.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(8);
        p.findChild<QSpinBox*>("topK")->setValue(2);
        p.resize(1080, 580);  // as the window gives it at 1280x720
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.generate();
        waitIdle(p);
        TokenOutputView* view = outputView(p);
        emit view->tokenClicked(0, 2);
        auto* alts = view->findChild<QListWidget*>("alternatives");
        QTRY_VERIFY2(alts->height() >= 4 * alts->fontMetrics().height(), qPrintable(QString::number(alts->height())));
        TextScale::apply(100);
        QLabel* title = nullptr;
        for (auto* l : view->findChildren<QLabel*>())
            if (l->text().startsWith("Token #3 "))
                title = l;
        QVERIFY(title);
        QTRY_VERIFY2(
            title->height() <= title->heightForWidth(title->width()) + title->fontMetrics().height(),
            qPrintable(QString("%1 px for %2").arg(title->height()).arg(title->heightForWidth(title->width()))));
    }
    void compareHasOneColumnPerCheckpoint() {
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(20);
        p.setSeed(7);
        p.setCompare({10, 20, 40}, {0.0, 1.0});
        p.picker()->refresh();  // new checkpoints re-read (as during training) keep the user's ticks
        p.runCompare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        auto* t = p.compareTable();
        QCOMPARE(t->columnCount(), 3);
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->horizontalHeaderItem(0)->text(), QString("step 10"));
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QString("step 40"));
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 3; ++c)
                QVERIFY(t->item(r, c) && !t->item(r, c)->text().isEmpty());
        // the greedy cell of step 40 equals a plain greedy generation at that checkpoint
        p.picker()->setCheckpoint("40");
        p.setTemperature(0);
        p.generate();
        waitIdle(p);
        QCOMPARE(t->item(0, 2)->text(), p.outputText());
        const QString md = p.compareMarkdown();
        QCOMPARE(md.count('\n'), 2 + 2 + 2);  // prompt + blank, header + rule, two rows
        QVERIFY(md.contains("| greedy |"));
        // A bad temperature is said under the tab's own controls (it went to the status bar only), and goes
        // when the next comparison is fine
        auto* problem = p.findChild<ErrorLabel*>("compareProblem");
        QVERIFY(problem && problem->isHidden());
        p.setCompare({10}, {});
        p.findChild<QLineEdit*>("compareTemps")->setText("abc, 0.8");
        p.runCompare();
        QVERIFY2(!problem->isHidden() && problem->error().contains("'abc' is not a number"),
                 qPrintable(problem->error()));
        p.setCompare({10}, {0.0});
        p.runCompare();
        waitIdle(p);
        QVERIFY(problem->isHidden());
    }

    void temperaturesReadAsTheInterfaceWritesNumbers() {
        // In Bokmål "0,5, 1,0" was cut at every comma into the temperatures 0, 5, 1 and 0, without a word.
        QString bad;
        QCOMPARE(CompareView::parseTemperatures("0, 0.8;1.2  2", &bad), (QVector<double>{0, 0.8, 1.2, 2}));
        QVERIFY(bad.isEmpty());
        const QLocale before;
        const auto restore = qScopeGuard([&before] { QLocale::setDefault(before); });
        QLocale::setDefault(QLocale(QLocale::NorwegianBokmal, QLocale::Norway));
        QCOMPARE(CompareView::parseTemperatures("0,5, 1,0", &bad), (QVector<double>{0.5, 1.0}));
        QCOMPARE(CompareView::parseTemperatures("0,5; 1,25 0", &bad), (QVector<double>{0.5, 1.25, 0}));
        QCOMPARE(CompareView::parseTemperatures("0.5, 1.0", &bad), (QVector<double>{0.5, 1.0}));  // a point too
        QVERIFY(bad.isEmpty());
        QVERIFY(CompareView::parseTemperatures("0,5,1,0", &bad).isEmpty());  // no list: said, not guessed
        QCOMPARE(bad, QString("0,5,1,0"));
        QCOMPARE(CompareView::temperaturesText({0.5, 1}), QString("0,5; 1"));  // and read back as written
        QCOMPARE(CompareView::parseTemperatures(CompareView::temperaturesText({0.5, 1}), &bad),
                 (QVector<double>{0.5, 1}));
        CompareView v;
        v.begin(1, {0, 0.5});
        QCOMPARE(v.table()->verticalHeaderItem(1)->text(), QString("T = 0,5"));
    }
    void translationRunsAreNeitherColumnsNorJudges() {
        // A translation run continues no prompt: as a column or a judge it blanked its cells without a word.
        const QString mt = Workspace::runsDir() + "/a-translation-run";
        QDir().mkpath(mt);
        twb::RunConfig c = twb::preset_config("multi30k");
        c.vocab_size = 64;  // a run's config names its vocabulary
        twb::write_file_atomic(mt.toStdString() + "/config.json", nlohmann::json(c).dump());
        QCOMPARE(twb::read_run_config(mt.toStdString()).model_kind, twb::ModelKind::EncoderDecoder);
        CompareView v;
        v.fillChoices(m_run, {10, 20});
        for (int i = 0; i < v.findChild<QListWidget*>()->count(); ++i)
            QVERIFY(v.findChild<QListWidget*>()->item(i)->data(Qt::UserRole).toString() != mt);
        auto* judges = v.findChild<QComboBox*>("compareJudge");
        QCOMPARE(judges->findData(mt), -1);
        QVERIFY(judges->findData(m_run) >= 0);
        v.setJudgeRun(mt + "-deleted");  // a remembered judge that no longer exists: none
        QCOMPARE(v.judgeRun(), QString());
        QDir(mt).removeRecursively();
    }
    void compareGivesTheTextsMostOfTheWidth() {
        // At the size the panel gives it at 1280x720, the controls' column took 255 of 770 pixels and the
        // texts' columns 140 each.
        CompareView v;
        v.fillChoices(m_run, {10, 20});
        v.resize(770, 500);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const int texts = v.findChild<QTableWidget*>("compareTable")->width();
        QVERIFY2(texts >= 520, qPrintable(QString::number(texts)));
        // A row's temperature sits at its top, where a row taller than the view still shows it
        QVERIFY(v.findChild<QTableWidget*>("compareTable")->verticalHeader()->defaultAlignment() & Qt::AlignTop);
        // A judge's label longer than the column keeps its end (the dataset) in the closed box, shortened in
        // the middle (it was cut at the right), and the tooltip names it whole.
        auto* judge = v.findChild<ElidingComboBox*>("compareJudge");
        judge->addItem("a-run-named-at-length (run-20261130-124313 · a-dataset-named-at-length)", m_run);
        judge->setCurrentIndex(judge->count() - 1);
        QVERIFY2(judge->shownText().endsWith("length)") && judge->shownText().contains(QChar(0x2026)),
                 qPrintable(judge->shownText()));
        QVERIFY2(judge->toolTip().endsWith(judge->currentText()), qPrintable(judge->toolTip()));
        // Two checkpoints' texts have room beside the controls; six would have 90 px each: the controls fold
        // away, the button above the texts brings them back.
        auto* controls = v.findChild<QWidget*>("compareControls");
        v.begin(2, {0.5});
        QVERIFY(controls->isVisible());
        v.begin(6, {0.5});
        QTRY_VERIFY(!controls->isVisible() && v.table()->width() >= v.width() - 30);
        v.findChild<QToolButton*>("compareFold")->click();
        QVERIFY(controls->isVisible() && v.controlsShown());
    }
    void judgeColumnScoresEachTextAsTheEngineDoes() {
        const QString judge = twbtest::make_tiny_run(m_ws, "judge", 20);
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(20);
        p.setSeed(7);
        p.setCompare({20, 40}, {0.0, 1.0});
        p.setCompareJudge(judge);
        p.runCompare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        auto* t = p.compareTable();
        QCOMPARE(t->columnCount(), 2);
        twb::ModelSession s;  // the engine's judge, asked directly
        s.open(judge.toStdString(), "best");
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) {
                auto* item = t->item(r, c);
                QVERIFY(item);
                const QString text = item->data(CompareView::TextRole).toString();
                QVERIFY(!text.isEmpty());
                const double want = s.score_continuation("the ", text.toStdString()).perplexity;
                QVERIFY(item->data(CompareView::JudgeRole).isValid());
                QCOMPARE(item->data(CompareView::JudgeRole).toDouble(), want);
                QVERIFY(item->text().startsWith(text));
                QVERIFY2(item->text().contains(QString::number(want, 'f', 2)), qPrintable(item->text()));
            }
        const QString md = p.compareMarkdown();
        QVERIFY(md.contains("Judge: each text's perplexity under `judge`"));
        QVERIFY(md.contains("judge perplexity: " +
                            QString::number(t->item(0, 1)->data(CompareView::JudgeRole).toDouble(), 'f', 2)));

        // A judge whose tokenizer lacks the texts' characters says so in the cell; nothing crashes.
        QTemporaryDir other;
        twbtest::write(twbtest::path(other, "ab.txt"), std::string(3000, 'a') + "\n" + std::string(3000, 'b') + "\n");
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(other, "ab.txt").string()};
        o.out = twbtest::path(other, "data");
        twb::prepare_dataset(o);
        twb::RunConfig cfg = twb::preset_config("tiny");
        cfg.data_dir = o.out.string();
        cfg.n_layer = 1;
        cfg.n_embd = 16;
        cfg.n_head = 2;
        cfg.block_size = 16;
        cfg.batch_size = 4;
        cfg.max_iters = 2;
        cfg.eval_interval = 2;
        cfg.eval_iters = 1;
        cfg.threads = 1;
        twb::TrainJob job;
        job.config = cfg;
        job.run_dir = twbtest::path(other, "abjudge").string();
        twb::train(job);
        p.setCompareJudge(QString::fromStdString(job.run_dir));
        p.runCompare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 2; ++c) {
                auto* item = t->item(r, c);
                QVERIFY(!item->data(CompareView::JudgeRole).isValid());
                QVERIFY2(item->text().contains("the judge cannot score this text"), qPrintable(item->text()));
            }
    }

    void severalSamplesStreamSideBySide() {
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(1.0);
        p.setMaxTokens(20);
        p.setSeed(3);
        p.setSamples(3);
        p.generate();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.output().samples.size(), qsizetype(3));
        for (const auto& s : p.output().samples)
            QCOMPARE(s.size(), qsizetype(20));
        QVERIFY(p.outputText(0) != p.outputText(1) || p.outputText(1) != p.outputText(2));
        const auto outs = history().back().outputs;
        QCOMPARE(outs.size(), size_t(3));
        QCOMPARE(q(outs[2]), p.outputText(2));
    }

    void beamSearchShowsItsText() {
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(15);
        p.findChild<QSpinBox*>("beamWidth")->setValue(3);
        p.generate();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.output().samples.size(), qsizetype(1));
        QVERIFY(!p.outputText().isEmpty());
        QCOMPARE(q(history().back().outputs[0]), p.outputText());
    }

    void historyListsGenerationsOfTheCli() {
        // What `twb sample` records: the engine's writer with source "cli".
        twb::SampleRecord r;
        r.source = "cli";
        r.checkpoint_step = 40;
        r.prompt = "from the command line";
        r.options.temperature = 0.7;
        r.outputs = {"a cli sample"};
        twb::append_sample_history(m_run.toStdString(), r);
        SamplingPanel p;
        p.setRun(m_run);
        auto* list = p.findChild<QListWidget*>("history");
        QVERIFY(list);
        QTRY_COMPARE(list->count(), static_cast<int>(history().size()));
        const QString newest = list->item(0)->text();  // newest first
        QVERIFY2(newest.contains("from the command line") && newest.contains("cli") && newest.contains("step 40"),
                 qPrintable(newest));
        list->setCurrentRow(0);
        QCOMPARE(p.findChild<QPlainTextEdit*>("historyText")->toPlainText(),
                 QString("from the command linea cli sample"));
    }

    void unencodablePromptNamesCharacters() {
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("héllo ☃");
        p.generate();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("☃"), qPrintable(p.lastError()));
        QVERIFY(p.output().samples.isEmpty());
    }
    void choosingAnotherRunLeavesTheLastRunsOutput() {
        // Run A's text, its strip and its comparison stayed under run B; a click on A's token then ran B's model
        // over A's ids, and a branch wrote A's text as a prompt into B's samples.jsonl.
        QTemporaryDir copy;
        const QString other = QFileInfo(copy.path() + "/other").absoluteFilePath();
        QVERIFY(QProcess::execute("cp", {"-r", m_run, other}) == 0);
        QFile::remove(other + "/samples.jsonl");
        SamplingPanel p;
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(0);
        p.setMaxTokens(12);
        p.generate();
        waitIdle(p);
        p.setCompare({10}, {0.0});
        p.runCompare();
        waitIdle(p);
        QCOMPARE(p.compareTable()->columnCount(), 1);
        emit outputView(p)->tokenClicked(0, 3);
        QVERIFY(!p.attribution()->isHidden());
        p.setPrompt("héllo ☃");  // and a refusal, which is A's too
        p.generate();
        waitIdle(p);
        QVERIFY(!p.lastError().isEmpty());
        p.setRun(other);
        QVERIFY(p.output().samples.isEmpty());
        QVERIFY(p.output().promptText.isEmpty());
        QVERIFY(p.attribution()->isHidden());
        QCOMPARE(p.compareTable()->columnCount(), 0);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(p.findChild<QLabel*>("samplingStatus")->text().isEmpty());
        p.branch(3, 1);  // nothing left to branch from
        QVERIFY(!p.isBusy());
        // A generation of A still running when B is chosen: it stops, and none of its tokens shows under B.
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setMaxTokens(4000);
        p.generate();
        QTRY_VERIFY_WITH_TIMEOUT(!p.output().samples.isEmpty() && !p.output().samples[0].isEmpty(), 60000);
        p.setRun(other);
        waitIdle(p);
        QVERIFY(p.output().samples.isEmpty());
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(twb::read_sample_history(other.toStdString()).empty());
        // The output's own run and checkpoint are what a branch continues with, whatever the picker shows.
        p.setPrompt("the ");
        p.setMaxTokens(12);
        p.generate();
        waitIdle(p);
        QCOMPARE(p.output().run, other);
        p.picker()->setCheckpoint("10");
        p.branch(3, 1);
        waitIdle(p);
        QCOMPARE(p.output().checkpoint, QString("best"));
    }
};

QTEST_MAIN(TestSamplingPanel)
#include "tst_sampling_panel.moc"
