// The training form's device chooser against a stand-in CUDA driver (tests/engine/fake_libcuda.cpp on
// LD_LIBRARY_PATH under ctest): it names the CPU and each GPU with its memory, writes the spelling a
// config holds, and keeps a device from another machine's config as an item of its own.
#include "twb/devices.h"
#include "ui/training/ConfigForm.h"
#include "ui/widgets/ElidingComboBox.h"

#include <QComboBox>
#include <QtTest>

class TestDeviceChooser : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(twb::compute_devices().size() == 4, "run under ctest: the fake libcuda.so.1"); }

    void namesEachDeviceAndWritesItsSpelling() {
        ConfigForm form;
        auto* box = form.findChild<QComboBox*>("device");
        QVERIFY(box);
        QCOMPARE(box->count(), 4);
        QCOMPARE(box->itemData(2).toString(), QString("cuda:0"));
        QVERIFY2(box->itemText(2).contains("Fake GPU 0") && box->itemText(2).contains("80.0 GiB"),
                 qPrintable(box->itemText(2)));
        QVERIFY(box->itemText(3).contains("Fake GPU 1"));
        // Automatic's rule on hover: the whole of it was cut in the box ("Automatic (a CUDA GPU if …")
        QCOMPARE(box->itemText(0), QString("Automatic (GPU if usable)"));
        QVERIFY(box->itemData(0, Qt::ToolTipRole).toString().contains("else the CPU"));
        // In a box too narrow for it (150% text at 1280x720): "Automatic", not "Automatic (GPU if us"
        box->setCurrentIndex(0);
        box->resize(box->fontMetrics().horizontalAdvance("Automatic (GPU") + 30, box->height());
        QCOMPARE(qobject_cast<ElidingComboBox*>(box)->shownText(), QString("Automatic"));
        box->setCurrentIndex(3);
        QCOMPARE(QString::fromStdString(form.config().device), QString("cuda:1"));
        box->setCurrentIndex(1);
        QCOMPARE(QString::fromStdString(form.config().device), QString("cpu"));
    }

    void keepsADeviceFromAnotherMachine() {
        ConfigForm form;
        twb::RunConfig c = form.config();
        c.device = "cuda:6";
        form.setConfig(c);
        auto* box = form.findChild<QComboBox*>("device");
        QCOMPARE(box->currentData().toString(), QString("cuda:6"));
        QVERIFY(box->currentText().contains("not on this machine"));
        QCOMPARE(QString::fromStdString(form.config().device), QString("cuda:6"));
        c.device = "auto";
        form.setConfig(c);
        QCOMPARE(box->currentData().toString(), QString("auto"));
    }
};

QTEST_MAIN(TestDeviceChooser)
#include "tst_device_chooser.moc"
