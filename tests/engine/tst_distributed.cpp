// Data-parallel training through the real `twb` binary, on loopback only: two ranks give the losses of
// one process with the same global batch, with bit-identical weights after every step; a killed rank
// stops the other with a message well within the timeout and the run resumes; rendezvous problems
// (a rank that never comes, a port in use, a bad RANK) are one-line errors.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/distributed.h"
#include "twb/metrics.h"
#include "twb/run_folder.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QElapsedTimer>
#include <QProcess>
#include <csignal>

namespace {

QString twbBinary() {
    return QString::fromStdString((std::filesystem::read_symlink("/proc/self/exe").parent_path() / "twb").string());
}

QStringList trainArgs(const std::string& data, const std::string& out, int batch, int iters) {
    return {"train",
            "--data",
            QString::fromStdString(data),
            "--out",
            QString::fromStdString(out),
            "--preset",
            "tiny",
            "--set",
            "n_layer=1",
            "--set",
            "n_embd=32",
            "--set",
            "block_size=16",
            "--set",
            QString("batch_size=%1").arg(batch),
            "--set",
            QString("max_iters=%1").arg(iters),
            "--set",
            "eval_interval=5",
            "--set",
            "eval_iters=2",
            "--set",
            "log_interval=1",
            "--set",
            "threads=1",
            "--set",
            "warmup_iters=2",
            "--set",
            "dtype=float32"};  // compared with float32 tolerances; auto would be bf16 on an AVX512-BF16 CPU
}

struct Out {
    int code;
    QByteArray out, err;
};
Out run(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(twbBinary(), args);
    p.waitForFinished(180000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

std::vector<double> trainLosses(const std::filesystem::path& run) {
    std::vector<double> v;
    for (const auto& r : twb::read_metrics(run / "metrics.csv"))
        if (r.kind == "train")
            v.push_back(r.train_loss);
    return v;
}

}  // namespace

class TestDistributed : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_data;

private slots:
    void initTestCase() {
        if (twb::distributed_backends().empty())
            TWB_SKIP_OR_FAIL("this build has no c10d backend (install libgloo-dev and rebuild)");
        twbtest::write(twbtest::path(m_dir, "c.txt"), twbtest::english_like(40000));
        twb::PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        twb::prepare_dataset(o);
        m_data = o.out.string();
    }
    void twoRanksEqualOneProcessOfTheGlobalBatch() {
        const auto one = twbtest::path(m_dir, "one"), two = twbtest::path(m_dir, "two");
        auto a = run(trainArgs(m_data, one.string(), 8, 20));
        QVERIFY2(a.code == 0, a.err.constData());
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("TWB_DIST_VERIFY", "1");  // the ranks compare their weights after every step
        auto b = run(trainArgs(m_data, two.string(), 4, 20) + QStringList{"--nproc", "2"}, env);
        QVERIFY2(b.code == 0, b.err.constData());
        QVERIFY2(b.out.contains("2 ranks, global batch 8"), b.out.constData());
        const auto la = trainLosses(one), lb = trainLosses(two);
        QCOMPARE(la.size(), size_t(20));
        QCOMPARE(lb.size(), la.size());
        for (size_t i = 0; i < la.size(); ++i)
            QVERIFY2(std::abs(la[i] - lb[i]) < 1e-5,
                     qPrintable(QString("step %1: %2 vs %3").arg(i + 1).arg(la[i]).arg(lb[i])));
        // Rank 0 alone wrote the run folder: one metrics row per step, the checkpoints of one run.
        QCOMPARE(twb::list_checkpoints(two), twb::list_checkpoints(one));
    }
    void aKilledRankStopsTheOtherAndTheRunResumes() {
        const auto dir = twbtest::path(m_dir, "killed");
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("TWB_DIST_TIMEOUT", "20");
        p.setProcessEnvironment(env);
        p.start(twbBinary(), trainArgs(m_data, dir.string(), 4, 100000) + QStringList{"--nproc", "2"});
        QVERIFY(p.waitForStarted());
        // Wait for rank 0's first checkpoint (step 5), then kill rank 1 (the launcher's second child).
        QByteArray out;
        while (!out.contains("checkpoint ") && p.state() == QProcess::Running)
            if (p.waitForReadyRead(60000))
                out += p.readAllStandardOutput();
        QVERIFY2(out.contains("checkpoint "), out.constData());
        std::ifstream children("/proc/" + std::to_string(p.processId()) + "/task/" + std::to_string(p.processId()) +
                               "/children");
        pid_t rank0 = 0, rank1 = 0;
        children >> rank0 >> rank1;
        QVERIFY2(rank1 > 0, "the launcher has no second child");
        QElapsedTimer t;
        t.start();
        ::kill(rank1, SIGKILL);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString("took %1 ms").arg(t.elapsed())));  // within the timeout
        QVERIFY(p.exitCode() != 0);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("rank 0 of 2") && err.contains("--resume"), err.constData());
        // The last checkpoint loads and the run continues, here as one process.
        const auto last = twb::list_checkpoints(dir).back();
        QVERIFY(last >= 5);
        auto r = run({"train", "--out", QString::fromStdString(dir.string()), "--resume", "--set",
                      QString("max_iters=%1").arg(last + 5), "--quiet"});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(twb::list_checkpoints(dir).back(), last + 5);
    }
    void rendezvousProblemsAreOneLineErrors() {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("WORLD_SIZE", "2");
        env.insert("RANK", "5");
        auto bad = run(trainArgs(m_data, twbtest::path(m_dir, "bad").string(), 4, 5), env);
        QCOMPARE(bad.code, 1);
        QCOMPARE(bad.err.trimmed(), QByteArray("twb: error: RANK=5 is not below WORLD_SIZE=2; ranks count from 0"));
        // A rank alone: the others never come.
        env.insert("RANK", "1");
        env.insert("MASTER_PORT", "1");  // nothing listens there
        env.insert("TWB_DIST_TIMEOUT", "2");
        auto alone = run(trainArgs(m_data, twbtest::path(m_dir, "alone").string(), 4, 5), env);
        QCOMPARE(alone.code, 1);
        QCOMPARE(alone.err.count('\n'), 1);
        QVERIFY2(alone.err.contains("did not all meet") && alone.err.contains("within 2 s"), alone.err.constData());
        // Rank 0 on a port already taken.
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        QVERIFY(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(s, 1) == 0 &&
                ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0);
        env.insert("RANK", "0");
        env.insert("MASTER_PORT", QString::number(ntohs(a.sin_port)));
        auto busy = run(trainArgs(m_data, twbtest::path(m_dir, "busy").string(), 4, 5), env);
        ::close(s);
        QCOMPARE(busy.code, 1);
        QCOMPARE(busy.err.count('\n'), 1);
        QVERIFY2(busy.err.contains("cannot listen") && busy.err.contains("MASTER_PORT"), busy.err.constData());
        QVERIFY(!std::filesystem::exists(twbtest::path(m_dir, "busy") / "checkpoints"));
    }
};

TWB_APPLESS_MAIN(TestDistributed)
#include "tst_distributed.moc"
