// The interface in Norwegian Bokmål: the main window with a run open is walked in English and again
// with the Bokmål translation (:/i18n/workbench_nb.qm) installed, every text a user reads is collected
// (labels, buttons, group boxes, tabs, menus and actions, combo box items, placeholders, spin boxes'
// special texts, list items, table and tree headers, plot axes and legends, window titles) from every
// panel and the dialogs, and a text that both walks show is an untranslated one, unless it reads the same
// in both languages (names, units, GPT, BLEU, the config files' spellings). The Bokmål window still fits
// 1280x720. The language follows the system locale or View → Language; the other UI tests stay English.
#include "test_util.h"
#include "twb/catalogue.h"
#include "twb/chat.h"
#include "twb/choices.h"
#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/sweep.h"
#include "twb/synthetic.h"
#include "ui/Language.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/experiments/CompareTokenizersDialog.h"
#include "ui/inspection/InspectedRun.h"
#include "ui/inspection/LensGrid.h"
#include "ui/runs/RunsPanel.h"
#include "ui/sampling/ChatView.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/sampling/TranslationForm.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/ConfigProblemText.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/ExportDialog.h"
#include "ui/widgets/SciSpinBox.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTranslator>

#include <functional>

namespace {

const char* const kPanels[] = {"Datasets", "Training", "Attention", "Sampling", "Experiments", "Runs"};

/// Texts that read the same in English and Bokmål: names, abbreviations, units, technical terms.
const QSet<QString>& sameInBothLanguages() {
    static const QSet<QString> s = {
        // names and abbreviations
        "Transformer Workbench",
        "GPT",
        "BLEU",
        "chrF",
        "BPE",
        "CPU",
        "CUDA",
        "GGUF",
        "safetensors",
        "OK",
        "JSON",
        "CSV",
        "PNG",
        "SVG",
        "English",
        "Norsk bokmål",
        "sentencepiece BPE",
        "sentencepiece unigram",
        "GGUF (llama.cpp, gpt2), f32",
        "TensorBoard",
        "TensorBoard…",
        "Adam β2",
        "id",
        "lr",
        "distinct-1",
        "distinct-2",
        // Norwegian words spelt as the English ones (and the field's names ML uses in Norwegian too)
        "Start",
        "Pause",
        "Status",
        "status",
        "Format",
        "Send",
        "System",
        "Chat",
        "Bias",
        "Norm",
        "Dropout",
        "token",
        "nats per token",
        "nats",
        "Top-k",
        "Top-p",
        // formulas of the option table
        "4 * n_embd",
        "n_embd / n_head",
        "batch_size * block_size",
        // the test's own run and dataset
        "tiny",
        "small",
    };
    return s;
}

/// Texts made of a translated part and a name: a window title with the run's name, a device's name.
bool holdsAName(const QString& t) {
    if (t.endsWith(" — Transformer Workbench") || t.startsWith("CPU — "))
        return true;
    // an unnamed run in a chooser: "FOLDER · DATASET", both names from the workspace
    for (const QString& run : Workspace::runs())
        for (const QString& data : Workspace::datasets())
            if (t == QFileInfo(run).fileName() + " · " + QFileInfo(data).fileName())
                return true;
    return false;
}

/// The config files' and the command line's spellings (choices like "rotary", "layernorm", tokenizer
/// kinds, synthetic tasks): the panels offer them as they are.
QSet<QString> spellings() {
    QSet<QString> s;
    for (const auto& k : twb::choice_names<twb::TokenizerKind>())
        s << QString::fromStdString(k);
    for (const auto& t : twb::synthetic_tasks())
        s << QString::fromStdString(t);
    for (const auto& o : twb::config_options()) {
        s << QString::fromStdString(o.key);
        for (const auto& c : o.choices)
            s << QString::fromStdString(c);
        // The sweep axes' "key — Label": the same in both languages where the label is ("dropout — Dropout")
        if (!o.label.empty())
            s << QString::fromStdString(o.key + " — " + o.label);
    }
    return s;
}

QString plain(QString text) {
    text.remove(QRegularExpression("<[^>]*>"));
    text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", " ");
    text.remove(QRegularExpression("&(?=\\S)"));  // accelerators
    return text.simplified();
}

void add(QStringList& out, const QString& text) {
    const QString t = plain(text);
    if (t.contains(QRegularExpression("[A-Za-zÆØÅæøå]{2,}")))  // words; numbers and symbols read the same
        out << t;
}

/// A table's or tree's headers and its first rows' cells (a run's status, a dataset's state).
void itemTexts(QStringList& out, QAbstractItemView* v) {
    const QAbstractItemModel* m = v->model();
    if (!m || qobject_cast<QHeaderView*>(v))  // a header shows its view's model: read through the view
        return;
    for (int c = 0; c < m->columnCount(); ++c) {
        add(out, m->headerData(c, Qt::Horizontal).toString());
        // The catalogue's titles, sizes and licences are its file's data, as written; its status column is ours.
        if (v->objectName() == "catalogue" && c != m->columnCount() - 1)
            continue;
        for (int r = 0; r < std::min(m->rowCount(), 20); ++r)
            add(out, m->index(r, c).data().toString());
    }
}

void plotTexts(QStringList& out, QCustomPlot* p) {
    for (QCPAxisRect* r : p->axisRects())
        for (QCPAxis* a : r->axes())
            add(out, a->label());
    for (int i = 0; i < p->plottableCount(); ++i)
        add(out, p->plottable(i)->name());
}

/// Every text a user reads in w and its children, shown now or on another tab or page.
QStringList textsOf(QWidget* w) {
    QStringList out;
    add(out, w->windowTitle());
    QList<QWidget*> all = w->findChildren<QWidget*>();
    all.prepend(w);
    for (QWidget* c : all) {
        if (auto* l = qobject_cast<QLabel*>(c); l && !qobject_cast<ErrorLabel*>(c))  // errors: the engine's English
            add(out, l->text());
        if (auto* b = qobject_cast<QAbstractButton*>(c))
            add(out, b->text());
        if (auto* g = qobject_cast<QGroupBox*>(c))
            add(out, g->title());
        if (auto* t = qobject_cast<QTabBar*>(c))
            for (int i = 0; i < t->count(); ++i)
                add(out, t->tabText(i));
        if (auto* b = qobject_cast<QComboBox*>(c))
            for (int i = 0; i < b->count(); ++i)
                add(out, b->itemText(i));
        if (auto* e = qobject_cast<QLineEdit*>(c))
            add(out, e->placeholderText());
        if (auto* s = qobject_cast<QAbstractSpinBox*>(c))
            add(out, s->specialValueText());
        if (auto* l = qobject_cast<QListWidget*>(c))
            for (int i = 0; i < l->count(); ++i)
                add(out, l->item(i)->text());
        if (auto* v = qobject_cast<QAbstractItemView*>(c))
            itemTexts(out, v);
        if (auto* p = qobject_cast<QCustomPlot*>(c))
            plotTexts(out, p);
    }
    for (QAction* a : w->findChildren<QAction*>())
        add(out, a->text());
    return out;
}

}  // namespace

class TestTranslation : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    /// The main window with the run open in every panel, each panel shown in turn; then the dialogs.
    QStringList walk() {
        QStringList texts;
        {
            MainWindow w;
            w.setGeometry(MainWindow::initialGeometry(QRect(0, 30, 1280, 690)));
            w.show();
            w.trainingPanel()->openRun(m_run);
            w.samplingPanel()->setRun(m_run);
            w.attentionPanel()->setRun(m_run);
            // the runs table is filled by a background job when its panel shows: wait for the run
            w.showPanel("Runs");
            auto* runs = w.runsPanel()->findChild<QTableView*>();
            if (!QTest::qWaitFor([&] { return runs && runs->model()->rowCount() > 0; }, 20000))
                qWarning("the runs table stayed empty");
            for (const char* panel : kPanels) {
                w.showPanel(panel);
                QCoreApplication::processEvents();
                texts << textsOf(&w);
            }
            for (QAction* top : w.menuBar()->actions())
                if (top->menu())
                    texts << textsOf(top->menu());
        }
        CompareTokenizersDialog compare;
        texts << textsOf(&compare);
        ExportDialog exportDialog(m_run);
        texts << textsOf(&exportDialog);
        texts.removeDuplicates();
        return texts;
    }

    /// Installs the Bokmål translation for the scope of f.
    template <class F>
    void inBokmal(F f) {
        QTranslator nb;
        // TWB_TEST_QM: another .qm in its place, e.g. a pseudo-translation that shows what tr() misses
        QVERIFY(nb.load(qEnvironmentVariable("TWB_TEST_QM", ":/i18n/workbench_nb.qm")));
        QCoreApplication::installTranslator(&nb);
        f();
        QCoreApplication::removeTranslator(&nb);
    }

private slots:
    void initTestCase() {
        m_run = twbtest::make_tiny_run(m_ws, "tiny", 20);
        // The tests run in English whatever the machine's locale: nothing installs a translator.
        QCOMPARE(QCoreApplication::translate("MainWindow", "Datasets"), QString("Datasets"));
    }

    void systemLocaleAndSettingChooseTheLanguage() {
        using C = Language::Choice;
        QCOMPARE(Language::resolve(C::System, QLocale("nb_NO")), QString("nb"));
        QCOMPARE(Language::resolve(C::System, QLocale("no_NO")), QString("nb"));
        QCOMPARE(Language::resolve(C::System, QLocale("nn_NO")), QString("nb"));
        QCOMPARE(Language::resolve(C::System, QLocale::c()), QString("en"));
        QCOMPARE(Language::resolve(C::System, QLocale("en_GB")), QString("en"));
        QCOMPARE(Language::resolve(C::System, QLocale("de_DE")), QString("en"));
        QCOMPARE(Language::resolve(C::English, QLocale("nb_NO")), QString("en"));
        QCOMPARE(Language::resolve(C::Bokmal, QLocale::c()), QString("nb"));
        QCOMPARE(Language::saved(), C::System);  // unset
        // View → Language: three checkable choices; picking one is remembered and says when it applies
        MainWindow w;
        auto* menu = w.findChild<QMenu*>("languageMenu");
        QVERIFY(menu);
        QStringList keys;
        for (QAction* a : menu->actions()) {
            QVERIFY(a->isCheckable());
            keys << a->data().toString();
        }
        QCOMPARE(keys, (QStringList{"system", "en", "nb"}));
        QVERIFY(menu->actions().at(0)->isChecked());
        QString said, buttons;
        QTimer::singleShot(0, &w, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                said = box->text();
                for (auto* b : box->buttons())
                    buttons += b->text() + "|";
                box->reject();  // Later
            }
        });
        menu->actions().at(2)->trigger();
        QCOMPARE(Language::saved(), C::Bokmal);
        QCOMPARE(QSettings().value("language").toString(), QString("nb"));
        // said in both languages (it was only in the one being left), with a restart at hand
        QVERIFY2(said.contains("starts again") && said.contains("starter på nytt"), qPrintable(said));
        QVERIFY2(buttons.contains("Restart now / Start på nytt nå") && buttons.contains("Later / Senere"),
                 qPrintable(buttons));  // the buttons too (they were only in the language being left)
        QCOMPARE(Language::resolve(Language::saved(), QLocale::c()), QString("nb"));
        Language::save(C::System);
        // Numbers follow the Bokmål interface on an English system ("1,344" reads as 1.344 there); a
        // Norwegian system's own locale and the English interface keep the system's.
        const QLocale nb = Language::numberLocale("nb", QLocale("en_US"));
        QCOMPARE(nb.toString(1344), QString("1") + nb.groupSeparator() + "344");
        QCOMPARE(nb.groupSeparator(), QLocale(QLocale::NorwegianBokmal, QLocale::Norway).groupSeparator());
        QCOMPARE(nb.toString(0.5, 'f', 1), QString("0,5"));
        QCOMPARE(Language::numberLocale("nb", QLocale("nn_NO")).name(), QLocale("nn_NO").name());
        QCOMPARE(Language::numberLocale("en", QLocale("en_US")).toString(1344), QString("1,344"));
    }

    void everyVisibleTextIsTranslated() {
        const QStringList english = walk();
        QVERIFY2(english.contains("Datasets") && english.contains("Learning rate"), qPrintable(english.join(" | ")));
        QStringList bokmal;
        inBokmal([&] { bokmal = walk(); });
        const QSet<QString> same = spellings(), englishSet(english.begin(), english.end());
        QStringList untranslated;
        for (const QString& t : bokmal)
            if (englishSet.contains(t) && !sameInBothLanguages().contains(t) && !same.contains(t) && !holdsAName(t) &&
                !t.contains(m_ws.path()))
                untranslated << t;
        qInfo("%lld texts in English, %lld in Bokmål, %lld untranslated", qlonglong(english.size()),
              qlonglong(bokmal.size()), qlonglong(untranslated.size()));
        QVERIFY2(untranslated.isEmpty(), qPrintable("untranslated: \"" + untranslated.join("\", \"") + "\""));
        QVERIFY2(bokmal.contains("Datasett") && bokmal.contains("Læringsrate") && bokmal.contains("ferdig"),
                 qPrintable(bokmal.join(" | ")));
    }

    /// Texts drawn rather than shown by widgets, which the walk cannot collect: the logit lens's row names
    /// and the inspection pages' checkpoint ("block 2 = utdata" read "block 2", "sjekkpunkt best").
    void drawnTextsAreTranslated() {
        inBokmal([this] {
            QCOMPARE(LensGrid::stageName(0), QString("innbygging"));
            QCOMPARE(LensGrid::stageName(3), QString("blokk 2"));
            QVERIFY2(inspectedRunText(m_run, "best").contains("sjekkpunkt beste"),
                     qPrintable(inspectedRunText(m_run, "best")));
            QVERIFY(inspectedRunText(m_run, "40").contains("sjekkpunkt steg 40"));
        });
    }

    /// The dataset catalogue's descriptions are data (datasets/catalogue.json): each has a Bokmål text
    /// (resources/translations/catalogue_strings.h), so an entry added without one is caught here.
    /// The training plots of a translation run in Bokmål at 150% text, as short as the panel leaves them:
    /// the small plots' titles are shortened to their width ("ideringsnøyaktigl" was cut at both ends)
    /// and the BLEU axis's labels keep apart (five lay on each other).
    void plotsFitInBokmalAtLargerText() {
        inBokmal([] {
            QCOMPARE(TextScale::apply(150), 150);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            MetricsPlot plot;
            plot.resize(600, 330);  // the panel's right half at 1280x720
            plot.show();
            QVERIFY(QTest::qWaitForWindowExposed(&plot));
            std::vector<twb::MetricsRow> rows;
            for (int i = 0; i <= 10; ++i) {
                twb::MetricsRow r;
                r.step = 10 * i;
                r.kind = "train";
                r.train_loss = 9 - 0.4 * i;
                r.lr = 1e-3;
                r.tokens_per_s = 20000;
                if (i > 0)  // the first training row is logged at step 10: the small plots span 10..100
                    rows.push_back(r);
                r.kind = "eval";
                r.val_loss = 9 - 0.4 * i;
                r.val_accuracy = 0.02 * i;
                r.val_bleu = 0.5 * i;
                rows.push_back(r);
            }
            plot.loadRows(rows);
            QCustomPlot* loss = plot.lossPlot();
            QTRY_VERIFY(loss->yAxis2->visible());
            for (auto* p : plot.findChildren<QCustomPlot*>()) {
                p->replot();
                auto* title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0));
                QVERIFY(title);
                QVERIFY2(QFontMetrics(title->font()).horizontalAdvance(title->text()) <= p->width(),
                         qPrintable(QString("'%1' in %2 px").arg(title->text()).arg(p->width())));
                // A step labelled at least (on 10..100 one tick of 100 steps left none in the range).
                int labelled = 0;
                for (double t : p->xAxis->tickVector())
                    labelled += p->xAxis->range().contains(t) ? 1 : 0;
                QVERIFY2(labelled >= 1, qPrintable(QString("'%1': %2 step labels").arg(title->text()).arg(labelled)));
            }
            const QVector<double> ticks = loss->yAxis2->tickVector();
            const int h = QFontMetrics(loss->yAxis2->tickLabelFont()).height();
            for (int i = 1; i < ticks.size(); ++i)
                QVERIFY2(std::abs(loss->yAxis2->coordToPixel(ticks[i]) - loss->yAxis2->coordToPixel(ticks[i - 1])) >= h,
                         qPrintable(
                             QString("BLEU ticks %1 and %2 closer than %3 px").arg(ticks[i - 1]).arg(ticks[i]).arg(h)));
        });
    }
    void everyCatalogueDescriptionIsTranslated() {
        inBokmal([] {
            QStringList missing;
            for (const auto& e : twb::load_catalogue())
                if (QCoreApplication::translate("Catalogue", e.description.c_str()) ==
                    QString::fromStdString(e.description))
                    missing << QString::fromStdString(e.name);
            QVERIFY2(missing.isEmpty(),
                     qPrintable("no Bokmål description (catalogue_strings.h): " + missing.join(", ")));
            QCOMPARE(QCoreApplication::translate("Catalogue", "Debian fortune cookies"),
                     QString("Debians lykkekaker (fortune)"));
        });
    }

    /// The config form's texts come from the engine's option table, in English: each has a Bokmål text.
    void everyConfigOptionTextIsTranslated() {
        inBokmal([] {
            QStringList missing;
            for (const auto& o : twb::config_options()) {
                if (o.label.empty())
                    continue;
                for (const std::string* s : {&o.label, &o.help, &o.zero})
                    if (!s->empty() &&
                        QCoreApplication::translate("ConfigOptions", s->c_str()) == QString::fromStdString(*s) &&
                        !sameInBothLanguages().contains(QString::fromStdString(*s)))
                        missing << QString::fromStdString(*s);
            }
            QVERIFY2(missing.isEmpty(),
                     qPrintable("not translated (scripts/update-translations.sh): " + missing.join(" | ")));
        });
    }

    /// A choice's items in the interface's words, the spelling kept as the item's data: "cosine" and
    /// "stream" stood in English in the Bokmål form. The names (gelu, rmsnorm, float32) are the same in both.
    void configChoicesAreTranslated() {
        inBokmal([] {
            const QSet<QString> names = {"gelu",    "gelu_tanh", "relu", "silu",    "layernorm",
                                         "rmsnorm", "noam",      "bleu", "float32", "bfloat16"};
            QStringList missing;
            for (const auto& o : twb::config_options())
                if (o.type == twb::OptionType::Choice && !o.label.empty())
                    for (const std::string& c : o.choices)
                        if (QCoreApplication::translate("ConfigChoices", c.c_str()) == QString::fromStdString(c) &&
                            !names.contains(QString::fromStdString(c)))
                            missing << QString::fromStdString(c);
            QVERIFY2(missing.isEmpty(),
                     qPrintable("not translated (scripts/update-translations.sh): " + missing.join(" | ")));
            TrainingPanel panel;
            auto* schedule = panel.findChild<QComboBox*>("schedule");
            QVERIFY(schedule);
            const int cosine = schedule->findData("cosine");
            QVERIFY(cosine >= 0);
            QCOMPARE(schedule->itemText(cosine), QString("cosinus"));
            QCOMPARE(schedule->itemData(cosine, Qt::ToolTipRole).toString(), QString("schedule=cosine"));
        });
    }

    void theKvCacheBoxIsWholeAtLargerText() {
        // In the translation form's field column "KV-hurtigbuffer" read "KV-hu" at 150%, at the width the Sampling
        // panel gives the form at 1280x720.
        inBokmal([] {
            QCOMPARE(TextScale::apply(150), 150);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            TranslationForm form;
            form.setFixedWidth(280);
            form.show();
            QVERIFY(QTest::qWaitForWindowExposed(&form));
            auto* box = form.findChild<QCheckBox*>();
            QVERIFY(box && box->text().startsWith("KV-"));
            QTRY_VERIFY2(box->width() >= box->sizeHint().width(),
                         qPrintable(QString("%1 < %2").arg(box->width()).arg(box->sizeHint().width())));
        });
    }
    void whyARunCannotChatReadsInBokmal() {
        // The sentence that says what to do stood in English inside the Bokmål message around it.
        const QString noEos = QString::fromStdString(twb::chat_unavailable(m_run.toStdString()));  // a char run
        QVERIFY2(noEos.contains("has no <eos>"), qPrintable(noEos));
        QCOMPARE(ChatView::unavailableText(noEos), noEos);  // English: the engine's words
        inBokmal([&] {
            const QString said = ChatView::unavailableText(noEos);
            QVERIFY2(said.startsWith("char-tokeniseringen") && said.contains("<eos>") && !said.contains("which ends"),
                     qPrintable(said));
        });
    }
    void configProblemsReadInBokmal() {
        // The form's problems were the engine's English with Bokmål labels put in: "Avtakingssteg (5) must be larger
        // than Oppvarming (30)".
        twb::RunConfig c = twb::preset_config("tiny");
        c.n_embd = 96;
        c.n_head = 5;
        c.head_size = 0;
        twb::RunConfig lr = twb::preset_config("tiny");
        lr.schedule = twb::Schedule::Cosine;
        lr.warmup_iters = 30;
        lr.lr_decay_iters = 5;
        lr.max_iters = 40;
        {
            ConfigForm english;
            english.setConfig(c);
            QCOMPARE(english.problemSummary(),
                     QString("Width 96 must be divisible by Heads 5 (or set Head size to choose the head width)"));
        }
        inBokmal([&] {
            const QLocale before;
            QLocale::setDefault(Language::numberLocale("nb", QLocale::c()));
            const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
            ConfigForm form;
            form.setConfig(c);
            QCOMPARE(
                form.problemSummary(),
                QString("Bredde 96 må være delelig med Hoder 5 (eller angi Hodestørrelse for å velge hodebredden)"));
            form.setConfig(lr);
            QCOMPARE(form.problemSummary(), QString("Avtakingssteg (5) må være større enn Oppvarming (30)"));
            // The note on an early decay writes its rate as the form does ("trener med 0.0003" beside "0,0003")
            twb::RunConfig early = twb::preset_config("tiny");
            early.schedule = twb::Schedule::Cosine;
            early.max_iters = 800;
            early.lr_decay_iters = 300;
            early.min_lr = 3e-4;
            QVERIFY2(ConfigForm::decayNote(early).endsWith(QLocale().toString(3e-4, 'g', 3) + "."),
                     qPrintable(ConfigForm::decayNote(early)));
            QVERIFY(QLocale().toString(3e-4, 'g', 3).contains(','));
            for (const QString& said : {configProblemText("learning_rate must be positive and below 10 (got -0.01)"),
                                        configProblemText("dropout must be between 0 and 0.9 (got 1.5)"),
                                        configProblemText("min_lr must be between 0 and learning_rate"),
                                        configProblemText("noam needs warmup_iters of at least 1")})
                QVERIFY2(said.contains("må være") || said.contains("trenger"), qPrintable(said));
            QCOMPARE(configProblemText("learning_rate must be positive and below 10 (got -0.01)"),
                     QString("learning_rate må være positiv og under 10 (er %1)").arg(QLocale().toString(-0.01)));
        });
    }

    /// Every sentence the engine's config checks can say reads in Bokmål: each key's range (every row of the
    /// option table that the form shows, at a value outside its range) and each check that joins keys.
    /// "Kilde-vokabularstørrelse is for encoder-decoder runs" stood in the Bokmål form.
    void everyConfigProblemReadsInBokmal() {
        std::vector<std::string> said;
        for (const auto& o : twb::config_options()) {
            if ((!o.min && !o.max) || o.label.empty())  // a key the form does not show has no problem there
                continue;
            twb::RunConfig c = twb::preset_config("tiny");
            const double out = o.min ? o.min->value - 1 : o.max->value + 1;
            o.read(c, o.type == twb::OptionType::Number ? nlohmann::json(out) : nlohmann::json(int64_t(out)), "test");
            const std::string why = o.range_problem(c);
            QVERIFY2(!why.empty(), o.key.c_str());
            said.push_back(why);
        }
        auto joined = [&](const std::function<void(twb::RunConfig&)>& change) {
            twb::RunConfig c = twb::preset_config("tiny");
            change(c);
            const auto p = c.validate();
            QVERIFY(!p.empty());
            said.insert(said.end(), p.begin(), p.end());
        };
        joined([](twb::RunConfig& c) { c.n_head = 5; });  // 64 wide: not divisible
        joined([](twb::RunConfig& c) { c.n_head = 16, c.head_size = 8192; });
        joined([](twb::RunConfig& c) { c.position = twb::Position::Rotary, c.head_size = 7; });
        joined([](twb::RunConfig& c) { c.schedule = twb::Schedule::Noam, c.warmup_iters = 0; });
        joined([](twb::RunConfig& c) { c.best_by = twb::BestBy::Bleu; });
        joined([](twb::RunConfig& c) {
            c.model_kind = twb::ModelKind::EncoderDecoder, c.best_by = twb::BestBy::Bleu, c.bleu_pairs = 0;
        });
        joined([](twb::RunConfig& c) {
            c.model_kind = twb::ModelKind::EncoderDecoder, c.sequences = twb::Sequences::Documents;
        });
        joined([](twb::RunConfig& c) { c.schedule = twb::Schedule::Cosine, c.lr_decay_iters = c.warmup_iters; });
        joined([](twb::RunConfig& c) { c.min_lr = 2 * c.learning_rate; });
        joined([](twb::RunConfig& c) { c.probe_prompt = std::string(5000, 'a'); });
        joined([](twb::RunConfig& c) { c.device = "gpu"; });
        joined([](twb::RunConfig& c) { c.device = "cuda:x"; });
        joined([](twb::RunConfig& c) { c.source_vocab_size = 100; });
        // A sweep's cell that is no valid config, as the Experiments panel shows it: of the other model family,
        // of the wrong type, and a joined check
        for (const auto& axis : std::vector<twb::SweepAxis>{
                 {"bleu_pairs", {"5"}}, {"learning_rate", {"abc"}}, {"n_head", {"5"}}, {"sequences", {"lines"}}}) {
            twb::SweepSpec spec;
            spec.base = twb::preset_config("tiny");
            spec.axes = {axis};
            try {
                twb::sweep_cells(spec);
                QFAIL(axis.key.c_str());
            } catch (const twb::ConfigError& e) {
                said.push_back(e.what());
            }
        }
        // English words that the sentences are built of (the key names and the config's spellings stay)
        const QRegularExpression english(
            "\\b(must|got|between|above|below|least|most|positive|or|and|needs|holds|"
            "leave|is for|divisible|rotate|even|the|sweep|valid|takes|not|number|one of)\\b");
        inBokmal([&] {
            QStringList untranslated;
            for (const auto& s : said)
                if (const QString text = configProblemText(QString::fromStdString(s)); text.contains(english))
                    untranslated << QString::fromStdString(s) + " → " + text;
            QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join("\n")));
        });
    }

    /// The learning rate in the interface's number format like the form's other numbers ("0,0003" beside a
    /// dropout of "0,10"; it read "0.0003"), and either spelling typed.
    void learningRateReadsInTheInterfacesFormat() {
        const QLocale before;
        QLocale::setDefault(Language::numberLocale("nb", QLocale::c()));
        const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
        SciSpinBox box;
        box.setDecimals(10);
        box.setRange(1e-9, 10);
        box.setValue(0.0003);
        QCOMPARE(box.text(), QString("0,0003"));
        for (const QString& typed : {QString("0,002"), QString("0.002"), QString("2e-3"), QString("2E-3")}) {
            box.findChild<QLineEdit*>()->setText(typed);
            box.interpretText();
            QVERIFY2(std::abs(box.value() - 0.002) < 1e-12, qPrintable(typed + " -> " + QString::number(box.value())));
        }
        box.setValue(1e-7);
        QCOMPARE(box.text(), QString("1e-07"));  // not Bokmål's "1E−07", whose minus no keyboard has
    }

    void bokmalWindowFits1280x720() {
        inBokmal([] {
            const QRect g = MainWindow::initialGeometry(QRect(0, 30, 1280, 690));
            MainWindow w;
            // Alt+R, P opened Pause, never "Lagre sjekk&punkt nå": one mnemonic per entry of a menu
            const QStringList clashes = twbtest::mnemonic_clashes(w.menuBar());
            QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("; ")));
            // the side bar shows every panel's whole name ("Oppmerksomhet")
            auto* nav = w.findChild<QListWidget*>("navigation");
            QVERIFY(nav);
            const int room = nav->width() - 2 * nav->frameWidth();
            QVERIFY2(nav->sizeHintForColumn(0) <= room,
                     qPrintable(QString("side bar: %1 > %2").arg(nav->sizeHintForColumn(0)).arg(room)));
            for (const char* name : kPanels) {
                w.showPanel(name);
                const QSize need = w.minimumSizeHint().expandedTo(w.minimumSize());
                QVERIFY2(need.width() <= g.width() && need.height() <= g.height(),
                         qPrintable(QString("%1 needs %2x%3").arg(name).arg(need.width()).arg(need.height())));
            }
            // Tokenize & prepare's four views keep their whole names ("Tok…", "Vokab…", "A m…", "Sammenslåi…")
            w.setGeometry(g);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.showPanel("Datasets");
            w.datasetsPanel()->findChild<QTabWidget*>()->setCurrentIndex(1);
            auto* views = w.findChild<QTabWidget*>("tokenizeViews");
            QTRY_VERIFY(views->isVisible());
            // The form beside them gives way (38% of the tab was theirs: with a desktop's fonts the names were
            // cut), and each name is whole here
            const int page = w.datasetsPanel()->findChild<QTabWidget*>()->currentWidget()->width();
            QVERIFY2(views->width() * 100 >= page * 45, qPrintable(QString("%1 of %2").arg(views->width()).arg(page)));
            for (int i = 0; i < views->count(); ++i)
                QVERIFY2(views->tabBar()->tabRect(i).width() >
                             views->tabBar()->fontMetrics().horizontalAdvance(views->tabText(i)) + 8,
                         qPrintable(views->tabText(i)));
            // At 150% text the options and the inspector do not lie on each other (the inspector covered the
            // options' right half, their buttons cut on both sides): side by side, or one above the other
            QCOMPARE(TextScale::apply(150), 150);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            auto* options = w.findChild<QWidget*>("tokenizeOptions");
            auto* inspector = w.findChild<QWidget*>("tokenizeInspector");
            QTRY_VERIFY2(!options->geometry().intersects(inspector->geometry()),
                         qPrintable(QString("options %1..%2, inspector from %3")
                                        .arg(options->x())
                                        .arg(options->geometry().right())
                                        .arg(inspector->x())));
            // and the views' names are whole or short, never cut ("Toke…", "Vokab…", "A m…", "Sammenslåin…")
            QCoreApplication::processEvents();
            for (int i = 0; i < views->count(); ++i)
                QTRY_VERIFY2(views->tabBar()->tabRect(i).width() >
                                 views->tabBar()->fontMetrics().horizontalAdvance(views->tabText(i)) + 8,
                             qPrintable(views->tabText(i)));
            // Translation pairs: the file fields keep room for a path (six "Bla gjennom…" left them 60 px)
            w.datasetsPanel()->findChild<QTabWidget*>()->setCurrentIndex(4);
            auto* source = w.findChild<QLineEdit*>("sourceFile");
            QTRY_VERIFY(source->isVisible());
            QVERIFY2(source->width() >= 12 * source->fontMetrics().averageCharWidth(),
                     qPrintable(QString::number(source->width())));
            // The synthetic tasks by their Norwegian names, the engine's kept as their data (the list read "addition")
            auto* tasks = w.findChild<QComboBox*>("syntheticTask");
            QCOMPARE(tasks->itemText(tasks->findData("addition")), QString("addisjon"));
            // Sampling's Evaluate tab: its Load file buttons whole ("ast inn fil." beside the titles)
            w.showPanel("Sampling");
            for (auto* tabs : w.findChildren<QTabWidget*>())
                for (int i = 0; i < tabs->count(); ++i)
                    if (tabs->widget(i)->findChild<QPlainTextEdit*>("references"))
                        tabs->setCurrentIndex(i);
            int loads = 0;
            for (auto* b : w.findChildren<QPushButton*>())
                if (b->isVisible() && b->text() == QString("Last inn fil…") && ++loads)
                    QTRY_VERIFY2(b->width() >= b->fontMetrics().horizontalAdvance(b->text()) + 8,
                                 qPrintable(QString("%1 px").arg(b->width())));
            QCOMPARE(loads, 2);
            // The Attention panel's tab titles whole or in their short forms ("Va…", "Posisjo…")
            w.showPanel("Attention");
            QCoreApplication::processEvents();
            for (QTabBar* bar : w.findChildren<QTabBar*>())
                for (int i = 0; bar->isVisible() && i < bar->count(); ++i)
                    QVERIFY2(bar->tabRect(i).width() > bar->fontMetrics().horizontalAdvance(bar->tabText(i)) + 8,
                             qPrintable(bar->tabText(i)));
        });
    }
};

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
