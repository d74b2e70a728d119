// The Generate tab's output, driven offscreen over a tiny trained run. A stop string: the output ends before the
// stop string, as the run's history keeps it. The tokens are shown as they come, so the first letters of a stop
// string stood in the view although the generation ended before them ("Ais a th" shown, "Ais a " kept). The stop
// strings are taken from the same seed's generation without them, so each one is met. The text size: back at 100%
// from a larger one, the alternatives' title is as tall as its lines again (QLabel's heightForWidth never goes
// below a minimum set before, so it kept the largest size's height: a blank above the list).
#include "ui/sampling/DecodingForm.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include "twb/samples_history.h"

#include <QLabel>
#include <QLineEdit>
#include <QScopeGuard>
#include <QTextBrowser>
#include <QToolButton>

#include <algorithm>

class TestSamplingOutput : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    QString generate(qint64 seed, const QString& stop) {
        SamplingPanel p;
        p.findChild<QLineEdit*>("stopStrings")->setText(stop);
        p.setRun(m_run);
        p.setPrompt("the ");
        p.setTemperature(1.0);
        p.setMaxTokens(120);
        p.setSeed(seed);
        p.generate();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }();
        [&] { QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError())); }();
        return p.outputText();
    }

private slots:
    void initTestCase() {
        m_run = twbtest::make_tiny_run(m_ws, "tiny", 20);
        QSettings().remove("sampling");  // no stop strings or settings of another test
    }

    void theOutputEndsBeforeTheStopString() {
        for (qint64 seed : {1, 2, 3}) {
            const QString free = generate(seed, QString());
            QVERIFY(free.size() > 60);
            for (int length : {2, 3}) {
                // letters only: the form trims a stop string and reads | and \\ as its own
                int at = 30 + length;
                while (at + length <= free.size() && !std::all_of(free.begin() + at, free.begin() + at + length,
                                                                  [](QChar c) { return c.isLetter(); }))
                    ++at;
                QVERIFY(at + length <= free.size());
                const QString stop = free.mid(at, length);
                const QString shown = generate(seed, stop);
                const auto history = twb::read_sample_history(m_run.toStdString());
                QVERIFY(!history.empty());
                const QString kept = QString::fromStdString(history.back().outputs.at(0));
                QCOMPARE(kept, free.left(free.indexOf(stop)));
                QCOMPARE(shown, kept);
            }
        }
    }

    void theTitleShrinksBackAfterALargerTextSize() {
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        SamplingPanel p;
        p.setRun(m_run);
        p.resize(1080, 580);  // as the window gives it at 1280x720
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QLabel* title = nullptr;
        for (auto* l : p.findChildren<QLabel*>())
            if (l->isVisibleTo(&p) && l->text().startsWith("Click a generated token"))
                title = l;
        QVERIFY(title);
        // The lines its text takes at its width, measured apart from the label (whose own measure is at least
        // its minimum)
        const auto lines = [title] {
            const QRect r = title->fontMetrics().boundingRect(QRect(0, 0, title->contentsRect().width(), 100000),
                                                              Qt::TextWordWrap | Qt::AlignLeft, title->text());
            return r.height() + title->height() - title->contentsRect().height();
        };
        const int lineAt100 = title->fontMetrics().height();
        for (int scale : {150, 250})
            QCOMPARE(TextScale::apply(scale), scale);
        QTRY_VERIFY(title->height() > 3 * title->fontMetrics().height());
        TextScale::apply(100);
        QTRY_COMPARE(title->fontMetrics().height(), lineAt100);  // the title has its font back
        QCoreApplication::processEvents();
        QTRY_VERIFY2(
            title->minimumHeight() <= lines() + title->fontMetrics().height(),
            qPrintable(QString("kept at least %1 px for %2 px of lines").arg(title->minimumHeight()).arg(lines())));
    }
    void theDecodingFoldsAwayAndIsRemembered() {
        // At 1280x720 with 175% text the Decoding column took half the width: the output showed five words a
        // line. The arrow on its title's line folds it away (its settings still apply), the one left of the tabs brings
        // it back; remembered.
        const auto restore = qScopeGuard([] {
            TextScale::apply(100);
            QSettings().remove("sampling/decodingShown");
        });
        QCOMPARE(TextScale::apply(175), 175);
        {
            SamplingPanel p;
            p.setRun(m_run);
            p.resize(1080, 580);  // as the window gives it at 1280x720
            p.show();
            QVERIFY(QTest::qWaitForWindowExposed(&p));
            auto* fold = p.findChild<QToolButton*>("decodingFold");
            auto* output = p.findChild<QTextBrowser*>("output");
            auto* decoding = p.findChild<DecodingForm*>();
            QVERIFY(fold && output && decoding);
            QVERIFY(p.decodingShown() && decoding->isVisible() && fold->isVisible());
            QVERIFY(!p.findChild<QToolButton*>("decodingUnfold")->isVisible());
            const int before = output->width();
            fold->click();
            QVERIFY(!p.decodingShown() && !decoding->isVisible());
            QVERIFY(p.findChild<QToolButton*>("decodingUnfold")->isVisible());
            QTRY_VERIFY2(output->width() > before + decoding->width() / 2,
                         qPrintable(QString("%1 px from %2").arg(output->width()).arg(before)));
            // folded, its settings still decide: greedy twice is the same text
            p.setTemperature(0);
            p.setPrompt("the ");
            p.setMaxTokens(40);
            QString texts[2];
            for (auto& t : texts) {
                p.generate();
                QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000);
                QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
                t = p.outputText();
            }
            QCOMPARE(p.output().temperature, 0.0);
            QCOMPARE(texts[0], texts[1]);
        }
        SamplingPanel again;  // remembered
        QVERIFY(!again.decodingShown());
        again.findChild<QToolButton*>("decodingUnfold")->click();
        QVERIFY(again.decodingShown());
    }
};

QTEST_MAIN(TestSamplingOutput)
#include "tst_sampling_output.moc"
