// The Sampling console's translation mode driven offscreen: an encoder-decoder run switches the console
// to it (and an LM run back), the streamed translation is exactly twb::Translator's for the same source and
// settings (greedy and beam), the batch mode writes one line per input line equal to Translator::translate's
// and shows the BLEU twb::corpus_bleu gives for the written file against the references, the settings are
// remembered, a reference of another length is refused with nothing written, and a cancelled batch writes
// nothing, and a clicked translated token's sources are Translator::attribute's for that translation.
#include "tiny_translation.h"
#include "twb/bleu.h"
#include "twb/text.h"
#include "twb/translation.h"
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/sampling/TranslationAttributionStrip.h"
#include "ui/sampling/TranslationBatchView.h"
#include "ui/sampling/TranslationForm.h"
#include "ui/sampling/TranslationView.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/StatusLine.h"
#include "ui_fixture.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>

namespace {
std::vector<std::string> lines_of(const QString& file) {
    std::vector<std::string> out;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& l : f.readAll().split('\n'))
        out.push_back(l.toStdString());
    if (!out.empty() && out.back().empty())
        out.pop_back();  // the final newline
    return out;
}
}  // namespace

class TestTranslationConsole : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws, m_mtDir;
    QString m_lm, m_mt;
    twb::Translator m_tr;
    std::vector<std::string> m_sources;

    static void waitIdle(TranslationView* v) { QTRY_VERIFY_WITH_TIMEOUT(!v->isBusy(), 60000); }
    static void waitBatch(TranslationBatchView* b) { QTRY_VERIFY_WITH_TIMEOUT(!b->isRunning(), 120000); }
    QString file(const char* name) const { return QString::fromStdString(twbtest::path(m_mtDir, name).string()); }

private slots:
    void initTestCase() {
        m_lm = twbtest::make_tiny_run(m_ws);  // also test-mode settings, cleared
        m_mt = QString::fromStdString(twbtest::tiny_translation_run(m_mtDir));
        m_tr.open(m_mt.toStdString(), "best");
        // 45 sources (more than one greedy batch of 32), letters a..h as the copy task's
        std::mt19937 rng(11);
        for (int i = 0; i < 45; ++i) {
            std::string s;
            for (int k = 0, n = 2 + static_cast<int>(rng() % 6); k < n; ++k)
                s += std::string(k ? " " : "") + static_cast<char>('a' + rng() % 8);
            m_sources.push_back(s);
        }
    }

    void runKindPicksTheMode() {
        SamplingPanel p;
        p.setRun(m_mt);
        p.show();
        QVERIFY(p.isTranslationMode());
        QVERIFY(p.translation()->isVisible());
        QVERIFY(!p.findChild<DecodingForm*>()->isVisible());  // the LM controls are hidden
        QVERIFY(p.translation()->findChild<QPlainTextEdit*>("source")->isVisible());
        p.setRun(m_lm);
        QVERIFY(!p.isTranslationMode());
        QVERIFY(!p.translation()->isVisible());
        QVERIFY(p.findChild<DecodingForm*>()->isVisible());
        // the LM run still samples
        p.setPrompt("the ");
        p.setTemperature(0);
        p.setMaxTokens(5);
        p.generate();
        QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.output().samples.value(0).size(), qsizetype(5));
        p.setRun(m_mt);
        QVERIFY(p.isTranslationMode());
    }

    void aClickedTokenShowsWhereItCameFrom() {
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationView* v = p.translation();
        v->form()->setBeamWidth(1);
        const char* src = "h g f e d c";
        v->setSource(src);
        v->translate();
        waitIdle(v);
        QVERIFY(v->tokens().size() >= 2);
        std::vector<int32_t> ids;
        for (const UiToken& t : v->tokens())
            ids.push_back(t.id);
        auto* strip = v->attribution();
        QVERIFY(strip->isHidden());
        auto* browser = v->findChild<QWidget*>("translation");
        QVERIFY(browser);
        TokenOutputView* view = nullptr;
        for (QWidget* w = browser; w && !view; w = w->parentWidget())
            view = qobject_cast<TokenOutputView*>(w);
        QVERIFY(view);
        emit view->tokenClicked(0, 1);
        QTRY_COMPARE_WITH_TIMEOUT(strip->index(), 1, 60000);
        QVERIFY(!strip->isHidden());
        const auto expected = m_tr.attribute(src, ids);
        const auto& got = strip->result();
        QCOMPARE(got.output_ids, expected.output_ids);
        QCOMPARE(got.source_tokens, expected.source_tokens);
        QCOMPARE(got.source_attribution.size(), expected.source_attribution.size());
        for (size_t i = 0; i < got.source_attribution.size(); ++i)
            QVERIFY(std::abs(got.source_attribution[i] - expected.source_attribution[i]) <=
                    1e-6 * (1 + std::abs(expected.source_attribution[i])));
        QVERIFY(strip->html().contains(QString::fromStdString(expected.source_tokens.front())));
        // Another token of the same translation reads the same result at once, with no new job.
        emit view->tokenClicked(0, 0);
        QCOMPARE(strip->index(), 0);
        // A new translation hides the strip until its tokens are clicked.
        v->translate();
        QVERIFY(strip->isHidden());
        waitIdle(v);
    }

    void streamedTranslationIsTranslators() {
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationView* v = p.translation();
        {  // Copy before any translation says there is nothing (it said "Translation copied")
            QSignalSpy said(v, &TranslationView::statusMessage);
            for (auto* b : v->findChildren<QPushButton*>())
                if (b->text() == "Copy")
                    b->click();
            QCOMPARE(said.count(), 1);
            QVERIFY2(said.first().at(0).toString().startsWith("Nothing to copy"),
                     qPrintable(said.first().at(0).toString()));
        }
        int seen = 0;
        for (const int beam : {1, 3}) {
            v->form()->setBeamWidth(beam);
            const twb::TranslateOptions opt = v->form()->options();
            QCOMPARE(opt.beam_width, beam);
            for (const char* src : {"a b c d", "h g f e d c", "d e f g h a b"}) {
                v->setSource(src);
                v->translate();
                QVERIFY(v->isBusy());
                waitIdle(v);
                QVERIFY2(v->lastError().isEmpty(), qPrintable(v->lastError()));
                const QString expected = QString::fromStdString(m_tr.translate({src}, opt)[0]);
                QCOMPARE(v->outputText(), expected);
                for (const UiToken& t : v->tokens()) {
                    QVERIFY(t.prob > 0 && t.prob <= 1);
                    QVERIFY(!t.altIds.isEmpty());
                    if (beam == 1)
                        QCOMPARE(t.altIds[0], t.id);  // greedy: the most probable
                }
                seen += static_cast<int>(v->tokens().size());
            }
        }
        QVERIFY(seen > 10);
        // Room for one token: the status says first that the length limit cut it; with room, not.
        auto* ratio = v->form()->findChild<QDoubleSpinBox*>("maxLengthRatio");
        auto* extra = v->form()->findChild<QSpinBox*>("maxLengthExtra");
        v->form()->setBeamWidth(1);
        for (const bool tight : {true, false}) {
            ratio->setValue(tight ? 0.1 : 1.5);
            extra->setValue(tight ? 0 : 10);
            v->setSource("d e f g h a b");
            v->translate();
            waitIdle(v);
            const QString status =
                v->findChild<QLabel*>("translationStatus")->text().replace(QChar(0x00A0), QChar(' '));
            QVERIFY2(status.contains(", cut at the length limit ·") == tight, qPrintable(status));
        }
        // Longer than the room beside the buttons, the status wraps: on one line its start was cut off under
        // them (":okener, kuttet ved lengdegrensen · …" in Bokmål)
        auto* status = v->findChild<QLabel*>("translationStatus");
        p.setFixedSize(900, 600);  // as a window on a screen: it cannot widen to the text
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        status->setText(statusLine(QString("a status part that goes on · ").repeated(12) + "the end"));
        QTRY_VERIFY2(status->minimumSizeHint().width() <= status->width(),
                     qPrintable(QString("%1 px for %2").arg(status->width()).arg(status->minimumSizeHint().width())));
        // an empty source is refused with a message, nothing sent
        v->setSource("  ");
        v->translate();
        QVERIFY(!v->isBusy());
        QVERIFY(v->lastError().contains("empty"));
    }

    void batchWritesTranslatorsLinesAndBleu() {
        std::string in, ref;
        for (const auto& s : m_sources) {
            in += s + "\n";
            ref += s + "\n";  // the copy task: the reference is the source
        }
        twb::write_file_atomic(file("in.txt").toStdString(), in);
        twb::write_file_atomic(file("ref.txt").toStdString(), ref);
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationView* v = p.translation();
        v->form()->setBeamWidth(1);
        TranslationBatchView* b = v->batch();
        b->setFiles(file("in.txt"), file("out.txt"), file("ref.txt"));
        b->setPreviewRows(10);
        b->run();
        QVERIFY(b->isRunning());
        waitBatch(b);
        QVERIFY2(b->lastError().isEmpty(), qPrintable(b->lastError()));
        const auto hyps = lines_of(file("out.txt"));
        QCOMPARE(hyps, m_tr.translate(m_sources, v->form()->options()));
        const auto bleu = twb::corpus_bleu(hyps, lines_of(file("ref.txt")));
        QVERIFY(b->result().scored);
        QCOMPARE(b->result().bleu.score, bleu.score);
        QVERIFY2(b->scoreText().contains(QStringLiteral("BLEU = %1").arg(bleu.score, 0, 'f', 2)),
                 qPrintable(b->scoreText()));
        QVERIFY(b->scoreText().contains(QString::fromStdString(bleu.signature)));
        QCOMPARE(b->result().chrf.score, twb::corpus_chrf(hyps, lines_of(file("ref.txt"))).score);
        QCOMPARE(b->table()->rowCount(), 10);
        QCOMPARE(b->table()->item(3, 0)->text(), QString::fromStdString(m_sources[3]));
        QCOMPARE(b->table()->item(3, 1)->text(), QString::fromStdString(hyps[3]));
        QCOMPARE(b->table()->item(3, 2)->text(), QString::fromStdString(m_sources[3]));
        QVERIFY(!b->scoreText().contains("longer than"));
        // A line longer than the encoder takes is named in the summary (it was cut without a word).
        std::string longLine;
        while (static_cast<int64_t>(longLine.size()) < 4 * m_tr.max_source_tokens())
            longLine += m_sources[0] + " ";
        twb::write_file_atomic(file("long.txt").toStdString(), m_sources[1] + "\n" + longLine + "\n");
        b->setFiles(file("long.txt"), file("long_out.txt"), QString());
        b->run();
        waitBatch(b);
        QCOMPARE(b->result().cropped, qint64(1));
        QVERIFY2(b->scoreText().contains("translated from their start only: 1</b> (the first: line 2)"),
                 qPrintable(b->scoreText()));
    }

    void settingsAreRemembered() {
        {
            TranslationForm f;
            f.setBeamWidth(5);
            f.findChild<QDoubleSpinBox*>("lengthPenalty")->setValue(0.7);
            f.findChild<QDoubleSpinBox*>("maxLengthRatio")->setValue(2.5);
        }
        TranslationForm again;
        const auto o = again.options();
        QCOMPARE(o.beam_width, 5);
        QCOMPARE(o.length_penalty, 0.7);
        QCOMPARE(o.max_length_ratio, 2.5);
        QVERIFY(again.findChild<QDoubleSpinBox*>("lengthPenalty")->isEnabled());
        again.setBeamWidth(1);  // greedy: the length penalty does not apply
        QVERIFY(!again.findChild<QDoubleSpinBox*>("lengthPenalty")->isEnabled());
    }

    void batchRefusesMisalignedReferences() {
        twb::write_file_atomic(file("in2.txt").toStdString(), "a b\nc d\ne f\n");
        twb::write_file_atomic(file("ref2.txt").toStdString(), "a b\nc d\n");
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationBatchView* b = p.translation()->batch();
        b->setFiles(file("in2.txt"), file("out2.txt"), file("ref2.txt"));
        b->run();
        waitBatch(b);
        QVERIFY2(b->lastError().contains("has 2 lines") && b->lastError().contains("has 3"),
                 qPrintable(b->lastError()));
        QVERIFY(!QFile::exists(file("out2.txt")));
    }

    void batchRefusesAnUnwritableOutputBeforeTranslating() {
        // An output in a folder that does not exist was found out only after every line was translated.
        twb::write_file_atomic(file("in3.txt").toStdString(), "a b\nc d\n");
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationBatchView* b = p.translation()->batch();
        b->setFiles(file("in3.txt"), file("no-such-folder/out3.txt"), QString());
        b->run();
        QVERIFY(!b->isRunning());  // refused at once, nothing started
        QVERIFY2(b->lastError().contains("does not exist"), qPrintable(b->lastError()));
    }

    void batchAsksBeforeReplacingAFileItDidNotWrite() {
        // The output remembered from an earlier session was replaced without a word.
        twb::write_file_atomic(file("in4.txt").toStdString(), "a b\nc d\n");
        twb::write_file_atomic(file("kept.txt").toStdString(), "keep me\n");
        SamplingPanel p;
        p.setRun(m_mt);
        TranslationBatchView* b = p.translation()->batch();
        b->setFiles(file("in4.txt"), file("kept.txt"));
        int asked = 0;
        auto answer = [&](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, &p, [&asked, button] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    asked += box->text().contains("kept.txt already exists");
                    box->button(button)->click();
                }
            });
        };
        answer(QMessageBox::No);
        b->run();
        QCOMPARE(asked, 1);
        QVERIFY(!b->isRunning());
        QCOMPARE(twb::read_file(file("kept.txt").toStdString()), std::string("keep me\n"));
        answer(QMessageBox::Yes);
        b->run();
        QCOMPARE(asked, 2);
        waitBatch(b);
        QCOMPARE(lines_of(file("kept.txt")).size(), size_t{2});
        b->run();  // what it wrote itself it replaces again without asking
        QCOMPARE(asked, 2);
        waitBatch(b);
        QVERIFY(b->lastError().isEmpty());
    }

    void cancelledBatchWritesNothing() {
        std::string in;
        // 900 lines, one at a time under beam search: seconds of work, so that the worker cannot finish
        // them all before the next line sets the flag even on a loaded machine (it stops after a line or two)
        for (int r = 0; r < 20; ++r)
            for (const auto& s : m_sources)
                in += s + "\n";
        twb::write_file_atomic(file("in3.txt").toStdString(), in);
        SamplingPanel p;
        p.setRun(m_mt);
        p.translation()->form()->setBeamWidth(4);
        TranslationBatchView* b = p.translation()->batch();
        b->setFiles(file("in3.txt"), file("out3.txt"));
        b->run();
        b->cancel();
        waitBatch(b);
        QVERIFY2(b->result().cancelled, qPrintable(b->lastError() + " / " + b->scoreText()));
        QVERIFY(!QFile::exists(file("out3.txt")));
        QVERIFY(b->scoreText().contains("nothing was written"));
    }
};

QTEST_MAIN(TestTranslationConsole)
#include "tst_translation_console.moc"
