// The main window composes the four panels, offers the documented shortcuts and remembers its panel.
#include "test_util.h"
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/datasets/DatasetsPanel.h"
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
        QCOMPARE(names, (QStringList{"Datasets", "Training", "Attention", "Sampling"}));
        QVERIFY(w.trainingPanel());
        // each navigation entry shows its panel
        auto* stack = w.findChild<QStackedWidget*>();
        QCOMPARE(stack->widget(0), static_cast<QWidget*>(w.datasetsPanel()));
        QCOMPARE(stack->widget(1), static_cast<QWidget*>(w.trainingPanel()));
        QCOMPARE(stack->widget(2), static_cast<QWidget*>(w.attentionPanel()));
        QCOMPARE(stack->widget(3), static_cast<QWidget*>(w.samplingPanel()));
        QStringList shortcuts;
        for (auto* a : w.menuBar()->findChildren<QAction*>())
            shortcuts << a->shortcut().toString();
        for (auto s : {"Ctrl+N", "Ctrl+O", "Ctrl+Q", "F5", "F6", "Shift+F5", "Ctrl+S", "Ctrl+R"})
            QVERIFY2(shortcuts.contains(s), s);
        w.showPanel("Sampling");
        QCOMPARE(w.findChild<QStackedWidget*>()->currentIndex(), 3);
        w.close();
        QCOMPARE(QSettings().value("window/panel").toString(), QString("Sampling"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
