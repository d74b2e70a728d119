// The main window composes the four panels, offers the documented shortcuts and remembers its panel; it
// opens within a 1280x720 screen, and the Run menu's actions follow the training panel's state.
#include "test_util.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/training/TrainingPanel.h"

#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        Workspace::setRoot(m_ws.path());
    }
    void composesPanelsAndShortcuts() {
        MainWindow w;
        auto* nav = w.findChild<QListWidget*>("navigation");
        QVERIFY(nav);
        QStringList names;
        for (int i = 0; i < nav->count(); ++i)
            names << nav->item(i)->text();
        QCOMPARE(names, (QStringList{"Datasets", "Training", "Attention", "Sampling", "Experiments"}));
        QVERIFY(w.trainingPanel());
        // each navigation entry shows its panel
        auto* stack = w.findChild<QStackedWidget*>();
        QCOMPARE(stack->widget(0), static_cast<QWidget*>(w.datasetsPanel()));
        QCOMPARE(stack->widget(1), static_cast<QWidget*>(w.trainingPanel()));
        QCOMPARE(stack->widget(2), static_cast<QWidget*>(w.attentionPanel()));
        QCOMPARE(stack->widget(3), static_cast<QWidget*>(w.samplingPanel()));
        QCOMPARE(stack->widget(4), static_cast<QWidget*>(w.experimentsPanel()));
        QStringList shortcuts;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    shortcuts << a->shortcut().toString();
        for (auto s : {"Ctrl+N", "Ctrl+O", "Ctrl+Q", "F5", "F6", "Shift+F5", "Ctrl+S", "Ctrl+R", "F1", "Ctrl+/",
                       "Alt+5", "Ctrl+L", "Ctrl+Shift+R"})
            QVERIFY2(shortcuts.contains(s), qPrintable(shortcuts.join(" ")));
        w.showPanel("Sampling");
        QCOMPARE(w.findChild<QStackedWidget*>()->currentIndex(), 3);
        w.close();
        QCOMPARE(QSettings().value("window/panel").toString(), QString("Sampling"));
    }
    void fitsSmallScreens() {
        // 1280x720 less a 30-pixel panel; the frame (title bar, borders) must fit as well
        const QRect laptop(0, 30, 1280, 690);
        const QRect g = MainWindow::initialGeometry(laptop);
        QVERIFY(laptop.contains(g.adjusted(-8, -40, 8, 8)));
        QCOMPARE(MainWindow::initialGeometry(QRect(0, 0, 1920, 1080)).size(), QSize(1400, 860));
        // every panel can be laid out in that space: nothing is forced larger than the window
        MainWindow w;
        for (const QString name : {"Datasets", "Training", "Attention", "Sampling"}) {
            w.showPanel(name);
            const QSize need = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(need.width() <= g.width() && need.height() <= g.height(),
                     qPrintable(QString("%1 needs %2x%3").arg(name).arg(need.width()).arg(need.height())));
        }
    }
    void runActionsFollowState() {
        MainWindow w;  // the workspace has no dataset: nothing to start, nothing running
        QMap<QString, bool> enabled;
        for (auto* top : w.menuBar()->actions())
            if (top->menu())
                for (auto* a : top->menu()->actions())
                    enabled[a->shortcut().toString()] = a->isEnabled();
        QCOMPARE(enabled.value("F5", true), false);
        QCOMPARE(enabled.value("F6", true), false);
        QCOMPARE(enabled.value("Shift+F5", true), false);
        QCOMPARE(enabled.value("Ctrl+S", true), false);
        QCOMPARE(enabled.value("Ctrl+R", false), true);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
