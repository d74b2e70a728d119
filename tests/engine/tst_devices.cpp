// The compute devices (twb/devices.h) against a stand-in CUDA driver (fake_libcuda.cpp, on
// LD_LIBRARY_PATH under ctest): the chooser's list, the one-line descriptions, and memory in use asked
// through a pushed and popped primary context.
#include "core/util/cuda_driver.h"
#include "twb/devices.h"

#include <dlfcn.h>
#include <QtTest>

class TestDevices : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Without the stand-in on the library path this test would test the machine instead.
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (!lib)
            lib = dlopen("libcuda.so.1", RTLD_NOW);
        QVERIFY2(lib && dlsym(lib, "fake_cuda_balance"), "run under ctest: the fake libcuda.so.1 is not loaded");
        m_balance = reinterpret_cast<int (*)()>(dlsym(lib, "fake_cuda_balance"));
    }

    void listsAutoCpuAndEachGpu() {
        const auto d = twb::compute_devices();
        QCOMPARE(int(d.size()), 4);
        QCOMPARE(QString::fromStdString(d[0].spelling), QString("auto"));
        QCOMPARE(QString::fromStdString(d[1].spelling), QString("cpu"));
        QCOMPARE(QString::fromStdString(d[1].name), QString::fromStdString(twb::cpu_model_name()));
        QCOMPARE(QString::fromStdString(d[2].spelling), QString("cuda:0"));
        QCOMPARE(QString::fromStdString(d[2].name), QString("Fake GPU 0"));
        QCOMPARE(d[2].memory, uint64_t(80) << 30);
        QCOMPARE(QString::fromStdString(d[3].spelling), QString("cuda:1"));
        QCOMPARE(d[3].memory, uint64_t(40) << 30);
        QCOMPARE(d[0].memory + d[1].memory, uint64_t(0));
    }

    void describesADeviceInOneLine() {
        QCOMPARE(QString::fromStdString(twb::describe_device("cuda:1")), QString("cuda:1 (Fake GPU 1, 40.0 GiB)"));
        QCOMPARE(QString::fromStdString(twb::describe_device("cuda")), QString("cuda:0 (Fake GPU 0, 80.0 GiB)"));
        QCOMPARE(QString::fromStdString(twb::describe_device("cuda:7")), QString("cuda:7"));  // not on this machine
        QCOMPARE(QString::fromStdString(twb::describe_device("auto")), QString("auto"));
        const QString cpu = QString::fromStdString(twb::describe_device("cpu"));
        QVERIFY(cpu == "cpu" || cpu == QString("cpu (%1)").arg(QString::fromStdString(twb::cpu_model_name())));
        QCOMPARE(twb::cuda_device_info(0).major, 9);
    }

    void memoryInUseThroughThePrimaryContext() {
        const twb::DeviceMemory m = twb::device_memory("cuda:0");
        QVERIFY(m.ok);
        QCOMPARE(m.total, uint64_t(80) << 30);
        QCOMPARE(m.used, uint64_t(20) << 30);
        QVERIFY2(m_balance(), "a context was left pushed or retained");
        QVERIFY(!twb::device_memory("cpu").ok);
        QVERIFY(!twb::device_memory("cuda:5").ok);
        QVERIFY(!twb::device_memory("nonsense").ok);
        QVERIFY(m_balance());
    }

private:
    int (*m_balance)() = nullptr;
};

QTEST_APPLESS_MAIN(TestDevices)
#include "tst_devices.moc"
