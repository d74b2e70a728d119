// The views inside the model in the GUI (issue 39), driven offscreen over a tiny trained run: the Attention
// panel's Logit lens page shows exactly the engine's lens (and says when a prompt was cut to the context), its Head
// ablation page the engine's table (and the costs become the head grid's score; a Cancel keeps the rows so far), the
// text with and without heads is the engine's with the same seed, and a click on a generated token in the Sampling
// console fills the attribution strip with the engine's attribution of that token to its context.
#include "twb/session.h"
#include "twb/text.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/attention/HeadGrid.h"
#include "ui/inspection/HeadAblationView.h"
#include "ui/inspection/LensGrid.h"
#include "ui/inspection/LogitLensView.h"
#include "ui/sampling/AttributionStrip.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/widgets/NumberItem.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>

class TestInspectionViews : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    static void waitIdle(PanelBase* p) { QTRY_VERIFY_WITH_TIMEOUT(!p->isBusy(), 60000); }

private slots:
    void initTestCase() { m_run = twbtest::make_tiny_run(m_ws, "tiny", 20); }

    void lensPageShowsTheEnginesLens() {
        AttentionPanel p;
        p.picker()->setRun(m_run);
        p.picker()->setCheckpoint("last");
        QCOMPARE(p.pages()->tabText(p.pages()->indexOf(p.lens())), QString("Logit lens"));
        p.lens()->setPrompt("the cat sat");
        p.lens()->show();
        QVERIFY(p.lens()->isBusy());
        waitIdle(p.lens());
        QVERIFY2(p.lens()->lastError().isEmpty(), qPrintable(p.lens()->lastError()));
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const auto ref = s.logit_lens("the cat sat", 5);
        const auto& shown = p.lens()->grid()->lens();
        QCOMPARE(shown.stages, ref.stages);
        QCOMPARE(shown.positions, ref.positions);
        for (int64_t st = 0; st < ref.stages; ++st)
            for (int64_t t = 0; t < ref.positions; ++t) {
                QCOMPARE(shown.at(st, t).front().id, ref.at(st, t).front().id);
                QCOMPARE(shown.at(st, t).front().prob, ref.at(st, t).front().prob);
            }
        // Hovering the top-left cell (the last stage, position 0) names its tokens and the final choice's rank.
        const QString tip = p.lens()->grid()->cellText(static_cast<int>(ref.stages) - 1, 0);
        QVERIFY2(tip.contains("rank 1 here"), qPrintable(tip));
        // The numbers export in the engine's format.
        const QString csv = m_ws.filePath("lens.csv");
        QVERIFY(p.lens()->exportNumbers(csv));
        QCOMPARE(QString::fromStdString(twb::read_file(csv.toStdString())),
                 QString::fromStdString(twb::lens_to_csv(ref)));
        // A prompt longer than the model's context is cut to its last block_size tokens, and said so (it was not)
        auto* crop = p.lens()->findChild<QLabel*>("lensCropNote");
        QVERIFY(crop && crop->isHidden());
        const QString longPrompt = QString("the cat sat ").repeated(20);
        p.lens()->setPrompt(longPrompt);
        p.lens()->show();
        waitIdle(p.lens());
        const size_t tokens = s.encode(longPrompt.toStdString()).size();
        QVERIFY(tokens > 32);
        QCOMPARE(p.lens()->grid()->lens().positions, int64_t{32});  // the run's block_size
        QVERIFY(!crop->isHidden());
        QVERIFY2(crop->text().contains(QString("has %1 tokens; the lens shows the last 32").arg(tokens)),
                 qPrintable(crop->text()));
        p.lens()->setPrompt("the cat sat");
        p.lens()->show();
        waitIdle(p.lens());
        QVERIFY(crop->isHidden());
        // Another checkpoint: the lens shown was of the one before, so it goes until Show is pressed again.
        p.picker()->setCheckpoint("best");
        QCOMPARE(p.lens()->grid()->lens().positions, int64_t{0});
        // the run and checkpoint looked at are named over the lens (the Attention tab's picker is not in view)
        const QString note = p.lens()->findChild<QLabel*>("lensRun")->text();
        QVERIFY2(note.contains(Workspace::runLabel(m_run).toHtmlEscaped()) && note.contains("checkpoint best"),
                 qPrintable(note));
        QVERIFY(p.ablation()->findChild<QLabel*>("ablationRun")->text().contains("checkpoint best"));
        QVERIFY(!p.lens()->exportNumbers(csv));
        // An error the lens clears leaves the status bar too (the panel forwarded it, but not its withdrawal).
        QSignalSpy said(&p, &PanelBase::statusMessage), withdrawn(&p, &PanelBase::statusWithdrawn);
        p.lens()->setPrompt("☃");
        p.lens()->show();
        waitIdle(p.lens());
        QCOMPARE(said.count(), 1);
        p.lens()->setPrompt("the cat");
        p.lens()->show();
        waitIdle(p.lens());
        QCOMPARE(withdrawn.count(), 1);
        QCOMPARE(withdrawn.at(0).at(0).toString(), said.at(0).at(0).toString());
    }

    void lensCellsGrowWithTheText() {
        // At 150% text a cell's token ran into its probability and the top row's name was cut (":k 2 =
        // output"): the grid's measures follow its font.
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const auto lens = s.logit_lens("the cat sat", 5);
        for (int scale : {100, 150}) {
            QCOMPARE(TextScale::apply(scale), scale);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            LensGrid g;
            g.setLens(lens);
            const QFontMetrics fm(g.cellFont());
            const QSize size = g.sizeHint();
            const int label = fm.horizontalAdvance(
                QString("%1 = output").arg(LensGrid::stageName(static_cast<int>(lens.stages) - 1)));
            QVERIFY2(size.height() >= fm.height() + static_cast<int>(lens.stages) * 2 * fm.height(),
                     qPrintable(QString("at %1%: %2 rows in %3 px, text %4 px high")
                                    .arg(scale)
                                    .arg(lens.stages)
                                    .arg(size.height())
                                    .arg(fm.height())));
            QVERIFY2(size.width() >= label + static_cast<int>(lens.positions) * fm.horizontalAdvance("0.00"),
                     qPrintable(QString("at %1%: %2 px wide").arg(scale).arg(size.width())));
            // The first cell starts right of the longest row name.
            QCOMPARE(g.cellAt(QPoint(label, size.height() - 6)), QPoint(-1, -1));
        }
    }
    void onlyTheInnerRowsMarkTheFinalChoice() {
        // Every cell of the output row had the orange corner "agrees with the output", which it is by definition.
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const auto lens = s.logit_lens("the cat sat", 5);
        LensGrid g;
        g.setLens(lens);
        g.resize(g.sizeHint());
        const QImage shot = g.grab().toImage();
        const int output = static_cast<int>(lens.stages) - 1;
        int marked = 0, expected = 0;
        for (int st = 0; st < output; ++st)
            for (int t = 0; t < lens.positions; ++t)
                expected += lens.at(st, t).front().id == lens.final_ids[static_cast<size_t>(t)];
        QSet<QPoint> cells;
        for (int y = 0; y < shot.height(); ++y)
            for (int x = 0; x < shot.width(); ++x)
                if (shot.pixelColor(x, y) == QColor(230, 120, 0)) {
                    const QPoint c = g.cellAt(QPoint(x, y) / shot.devicePixelRatio());
                    QVERIFY2(c.x() != output, qPrintable(QString("a mark in the output row at %1").arg(c.y())));
                    cells.insert(c);
                }
        marked = static_cast<int>(cells.size());
        QCOMPARE(marked, expected);
    }
    void theAblationTableHasTheRoomAtLargeText() {
        // At 1280x720 with 175% text the cost table showed two rows above two empty text boxes of seven lines:
        // the texts start three lines high, the table takes the rest, the line between them movable.
        QCOMPARE(TextScale::apply(175), 175);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        AttentionPanel p;
        p.findChild<QTabWidget*>("attentionPages")->setCurrentWidget(p.ablation());
        p.resize(1052, 590);  // the panel's room in a 1280x720 window at 175%
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QTableWidget* table = p.ablation()->table();
        auto* text = p.ablation()->findChild<QPlainTextEdit*>();
        QVERIFY(text);
        const int row = table->verticalHeader()->defaultSectionSize(), line = text->fontMetrics().lineSpacing();
        QTRY_VERIFY2(table->height() >= table->horizontalHeader()->height() + 5 * row,
                     qPrintable(QString("the table %1 px for rows of %2 px").arg(table->height()).arg(row)));
        QVERIFY2(text->height() >= 3 * line && text->height() <= 5 * line,
                 qPrintable(QString("the text %1 px for lines of %2 px").arg(text->height()).arg(line)));
        QVERIFY(table->parentWidget()->inherits("QSplitter"));
    }
    void ablationTableIsTheEnginesAndScoresTheGrid() {
        AttentionPanel p;
        p.picker()->setRun(m_run);
        p.picker()->setCheckpoint("last");
        HeadAblationView* v = p.ablation();
        v->setHeads("1.0");
        v->setMaxTokens(512);
        v->measureEveryHead();
        QVERIFY(v->isBusy());
        waitIdle(v);
        QVERIFY2(v->lastError().isEmpty(), qPrintable(v->lastError()));
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        twb::AblationOptions o;
        o.max_tokens = 512;
        o.heads = {{1, 0}};
        o.every_head = true;
        const auto ref = s.ablation_table(o);
        QCOMPARE(v->table()->rowCount(), 2 + 4);  // none, the set, and each of 2 x 2 heads
        // Losses with four decimals each (they mixed 2.2519 and 2.25283), costs sorted by value.
        for (int r = 0; r < v->table()->rowCount(); ++r)
            QVERIFY2(QRegularExpression("^-?\\d+\\.\\d{4}$").match(v->table()->item(r, 1)->text()).hasMatch(),
                     qPrintable(v->table()->item(r, 1)->text()));
        v->table()->sortItems(2, Qt::DescendingOrder);
        for (int r = 0; r + 2 < v->table()->rowCount(); ++r)  // the last row: "none", without a cost
            QVERIFY(static_cast<NumberItem*>(v->table()->item(r, 2))->value() >=
                    static_cast<NumberItem*>(v->table()->item(r + 1, 2))->value());
        // The typed set's row is told apart from head 1.0's own row.
        QCOMPARE(v->table()->findItems("1.0 (the typed set)", Qt::MatchExactly).size(), 1);
        QCOMPARE(v->table()->findItems("1.0", Qt::MatchExactly).size(), 1);
        QCOMPARE(v->result().base_loss, ref.base_loss);
        QCOMPARE(v->result().set_loss, ref.set_loss);
        QCOMPARE(v->result().every_head.size(), ref.every_head.size());
        for (size_t i = 0; i < ref.every_head.size(); ++i)
            QCOMPARE(v->result().every_head[i].cost, ref.every_head[i].cost);
        // The costs are the grid's last score.
        p.setPrompt("the cat");
        p.showPrompt();
        QTRY_VERIFY_WITH_TIMEOUT(p.capture().layers == 2 && !p.isBusy(), 60000);
        p.setScore(4);
        const auto& bars = p.grid()->scores();
        QCOMPARE(bars.size(), size_t{4});
        for (const auto& r : ref.every_head)
            QCOMPARE(bars[static_cast<size_t>(r.head.layer * 2 + r.head.head)], static_cast<float>(r.cost));
        // Another checkpoint: the table was of the one before, so it goes.
        p.picker()->setCheckpoint("best");
        QCOMPARE(v->table()->rowCount(), 0);
        QVERIFY(v->result().every_head.empty());
    }

    void anotherRunDropsTheTableUnderWay() {
        // A cost table still computing when another run or checkpoint is chosen was shown when it ended,
        // under the new choice's name (and its costs became the grid's score for the other run's heads).
        AttentionPanel p;
        p.picker()->setRun(m_run);
        p.picker()->setCheckpoint("last");
        HeadAblationView* v = p.ablation();
        QSignalSpy costs(v, &HeadAblationView::costsReady);
        v->setMaxTokens(4096);
        v->measureEveryHead();
        QVERIFY(v->isBusy());
        p.picker()->setCheckpoint("best");  // before the job's answer can arrive: it comes through the loop
        waitIdle(v);
        QCOMPARE(v->table()->rowCount(), 0);
        QVERIFY(v->result().every_head.empty());
        QCOMPARE(costs.count(), 0);
        QVERIFY(v->lastError().isEmpty());
        v->setHeads("0.*");  // the texts with and without the heads: the same
        v->setPrompt("the ");
        v->compareText();
        p.picker()->setCheckpoint("last");
        waitIdle(v);
        QVERIFY(v->withText().isEmpty() && v->withoutText().isEmpty());
        v->measureEveryHead();  // and the page still works for the run chosen now
        waitIdle(v);
        QCOMPARE(v->table()->rowCount(), 2 + 4);  // none, the typed set, each head
        QCOMPARE(costs.count(), 1);
    }

    void cancelKeepsTheRowsSoFarAndANewTableReplacesTheOld() {
        // A new table's measuring showed the old table under its progress, and a Cancel left that old table under
        // "Head ablation cancelled" in red, as if it were the rows computed so far (which were dropped).
        HeadAblationView v;
        v.setRun(m_run, "last");
        auto* progress = v.findChild<QProgressBar*>("ablationProgress");
        QVERIFY(progress && progress->isHidden());  // idle and empty, it looked like a field to type into
        v.setHeads("0.0");
        v.setMaxTokens(512);
        v.measureSet();
        QVERIFY(!progress->isHidden());
        waitIdle(&v);
        QCOMPARE(v.table()->rowCount(), 2);  // none, the set
        v.setHeads("");
        v.measureEveryHead();
        QCOMPARE(v.table()->rowCount(), 0);  // the old table goes at once
        v.cancel();  // at once: the loss with every head, and any head's the worker finished first, are kept
        waitIdle(&v);
        QVERIFY2(v.lastError().isEmpty(), qPrintable(v.lastError()));
        QVERIFY(v.result().cancelled);
        // The rows computed before the cancel, no more (a loaded machine's worker sometimes finished a head
        // first: asserting one row raced it)
        const auto& r = v.result();
        QVERIFY(r.every_head.size() < static_cast<size_t>(r.layers * r.heads));
        QCOMPARE(v.table()->rowCount(), 1 + static_cast<int>(r.every_head.size()));
        QCOMPARE(v.table()->item(0, 0)->text(), QString("none"));
        QCOMPARE(static_cast<NumberItem*>(v.table()->item(0, 1))->value(), v.result().base_loss);
    }

    void textWithAndWithoutIsTheEngines() {
        HeadAblationView v;
        v.setRun(m_run, "last");
        v.setHeads("0.*");
        v.setPrompt("the ");
        v.compareText();
        waitIdle(&v);
        QVERIFY2(v.lastError().isEmpty(), qPrintable(v.lastError()));
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        twb::SamplingOptions so;
        so.seed = 1;
        so.max_new_tokens = 120;
        const auto ids = s.encode("the ");
        const auto with = s.generate(ids, so).texts.front();
        s.set_ablated_heads({{0, 0}, {0, 1}});
        const auto without = s.generate(ids, so).texts.front();
        QCOMPARE(v.withText(), QString::fromStdString("the " + with));
        QCOMPARE(v.withoutText(), QString::fromStdString("the " + without));
        v.setHeads("5.0");  // no such layer: one message, nothing run
        v.compareText();
        QVERIFY(!v.isBusy());
        QVERIFY2(v.lastError().contains("layer 5 does not exist"), qPrintable(v.lastError()));
    }

    void clickedTokenShowsItsAttribution() {
        SamplingPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        p.setPrompt("the cat ");
        p.setSeed(3);
        p.setMaxTokens(12);
        p.generate();
        waitIdle(&p);
        QCOMPARE(p.output().samples.size(), 1);
        const int index = 5;
        TokenOutputView* view = nullptr;  // the LM mode's (the translation mode has one too)
        for (auto* v : p.findChildren<TokenOutputView*>())
            if (v->browser()->objectName() == "output")
                view = v;
        QVERIFY(view);
        QVERIFY(!p.output().promptIds.empty());
        emit view->tokenClicked(0, index);
        QVERIFY(p.attribution()->isVisibleTo(&p));
        QTRY_VERIFY_WITH_TIMEOUT(!p.attribution()->result().ids.empty(), 60000);
        std::vector<int32_t> context = p.output().promptIds;
        for (int i = 0; i < index; ++i)
            context.push_back(p.output().samples[0][i].id);
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const auto ref = s.attribute(context, p.output().samples[0][index].id);
        const auto& shown = p.attribution()->result();
        QCOMPARE(shown.ids, ref.ids);
        QCOMPARE(shown.gradient_x_input, ref.gradient_x_input);
        QCOMPARE(shown.rollout, ref.rollout);
        QVERIFY(p.attribution()->isVisibleTo(&p));
        QVERIFY(p.attribution()->html().contains("background"));
        // The token it came from the most is counted from 1 ("token 21 of 22" was the last of 22).
        size_t top = 0;
        for (size_t i = 1; i < ref.gradient_x_input.size(); ++i)
            if (std::abs(ref.gradient_x_input[i]) > std::abs(ref.gradient_x_input[top]))
                top = i;
        const QString title = p.attribution()->findChild<QLabel*>("attributionTitle")->text();
        QVERIFY2(title.contains(QString("(token %1 of the %2 before it)").arg(top + 1).arg(ref.ids.size())),
                 qPrintable(title));
        const QString json = m_ws.filePath("attribution.json");
        QVERIFY(p.attribution()->exportNumbers(json));
        QCOMPARE(QString::fromStdString(twb::read_file(json.toStdString())),
                 QString::fromStdString(twb::attribution_to_json(ref)));
        p.generate();  // a new generation clears it
        QVERIFY(p.attribution()->result().ids.empty());
        waitIdle(&p);
    }

    void aClickedTokensTitlesAreWholeInLargerText() {
        // At 150% text in the right half of 1280x720, the alternatives' title was cut at the top and bottom
        // and the attribution's squeezed into a column beside its chooser and Export.
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        SamplingPanel p;
        p.resize(1060, 560);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        p.setPrompt("the cat ");
        p.setMaxTokens(60);
        p.generate();
        waitIdle(&p);
        TokenOutputView* view = nullptr;
        for (auto* v : p.findChildren<TokenOutputView*>())
            if (v->browser()->objectName() == "output")
                view = v;
        QVERIFY(view);
        emit view->tokenClicked(0, 40);
        QTRY_VERIFY_WITH_TIMEOUT(!p.attribution()->result().ids.empty(), 60000);
        QTest::qWait(50);  // the layouts settle
        auto* strip = p.attribution()->findChild<QLabel*>("attributionTitle");
        QLabel* alternatives = nullptr;  // the label above the alternatives: it names the token
        for (auto* l : view->findChildren<QLabel*>())
            if (l->text().contains("Click an alternative"))
                alternatives = l;
        QVERIFY(alternatives);
        for (QLabel* l : {strip, alternatives})
            QVERIFY2(l->height() >= l->heightForWidth(l->width()), qPrintable(QString("%1 px high for %2 needed: %3")
                                                                                  .arg(l->height())
                                                                                  .arg(l->heightForWidth(l->width()))
                                                                                  .arg(l->text())));
        // The attribution's title has the strip's whole width, not a column beside the chooser.
        QVERIFY2(strip->width() >= p.attribution()->width() - 2,
                 qPrintable(QString("%1 of %2").arg(strip->width()).arg(p.attribution()->width())));
    }
};

QTEST_MAIN(TestInspectionViews)
#include "tst_inspection_views.moc"
