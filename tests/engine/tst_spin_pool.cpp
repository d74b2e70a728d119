// The fast decoder's spinning thread pool: every chunk runs exactly once, on more than one thread when
// helpers exist, across many jobs in a row (the generation handshake), with two callers at once (the
// second works alone), after idle helpers went to sleep, with a helper that stalls every job it joins,
// in slices when a job has more chunks than the claim counter holds, and with a pool of one thread.
#include "core/decoding/spin_pool.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace twb;

namespace {
/// Runs a job of `chunks` chunks and checks each ran once; returns the threads that ran them.
std::set<std::thread::id> run_once_each(SpinPool& pool, int chunks) {
    std::vector<std::atomic<int>> seen(static_cast<size_t>(chunks));
    std::mutex mu;
    std::set<std::thread::id> ids;
    pool.run(chunks, [&](int64_t i) {
        seen[static_cast<size_t>(i)].fetch_add(1);
        // Enough work that a spinning helper gets a share of the chunks.
        volatile double x = 0;
        for (int k = 0; k < 20000; ++k)
            x = x + k * 0.5;
        std::lock_guard<std::mutex> g(mu);
        ids.insert(std::this_thread::get_id());
    });
    for (int i = 0; i < chunks; ++i)
        if (seen[static_cast<size_t>(i)].load() != 1)
            qFatal("chunk %d ran %d times", i, seen[static_cast<size_t>(i)].load());
    return ids;
}
}  // namespace

class TestSpinPool : public QObject {
    Q_OBJECT
private slots:
    void everyChunkOnceOverManyJobs() {
        SpinPool pool(3);
        QCOMPARE(pool.threads(), 3);
        std::set<std::thread::id> all;
        // Until both helpers took a share (a loaded machine may schedule them late), then some more.
        for (int job = 0; job < 2000 || (all.size() < 3 && job < 50000); ++job)
            for (auto id : run_once_each(pool, 1 + job % 17))
                all.insert(id);
        QVERIFY(all.count(std::this_thread::get_id()) == 1);  // the caller works too
        QVERIFY2(all.size() == 3, "a helper never took a chunk");
    }

    void sleepingHelpersWakeUp() {
        SpinPool pool(2);
        run_once_each(pool, 8);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spin: the helper sleeps
        std::set<std::thread::id> all;
        for (int job = 0; all.size() < 2 && job < 50000; ++job)
            for (auto id : run_once_each(pool, 8))
                all.insert(id);
        QVERIFY2(all.size() == 2, "the helper did not wake up for new jobs");
    }

    void stallingHelpersLeaveTheCallerAlone() {
        // A helper that holds every chunk it takes for 2 ms, as one the OS took off its core would: after
        // a few such stalls the caller runs thousands of jobs alone (4096 at first), then tries it again.
        // The caller's chunks take a moment, so that the helper gets a chunk even on a loaded machine.
        SpinPool pool(2);
        const auto caller = std::this_thread::get_id();
        int joined = 0;  // jobs the helper took a chunk of
        int alone = 0;   // jobs in a row without it, since it last took one
        for (int job = 0; job < 200000 && joined <= 200 && !(joined >= 4 && alone >= 4000); ++job) {
            std::atomic<bool> byHelper{false};
            pool.run(4, [&](int64_t) {
                if (std::this_thread::get_id() != caller) {
                    byHelper.store(true);
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    return;
                }
                volatile double x = 0;
                for (int k = 0; k < 2000; ++k)
                    x = x + k * 0.5;
            });
            if (byHelper.load()) {
                ++joined;
                alone = 0;
            } else {
                ++alone;
            }
        }
        // A pool that kept its helper gives it a share of nearly every job instead.
        QVERIFY2(joined >= 4 && alone >= 4000,
                 qPrintable(QString("the helper took a chunk of %1 jobs; %2 jobs alone since").arg(joined).arg(alone)));
    }

    void twoCallersAtOnce() {
        SpinPool pool(2);
        std::atomic<int> done{0};
        auto caller = [&] {
            for (int job = 0; job < 500; ++job)
                run_once_each(pool, 6);
            done.fetch_add(1);
        };
        std::thread a(caller), b(caller);
        a.join();
        b.join();
        QCOMPARE(done.load(), 2);
    }

    void moreChunksThanOneJobHolds() {
        // The claim counter holds 0xffff chunks a job; a larger run goes in slices, none dropped.
        SpinPool pool(2);
        const int64_t chunks = 0xffff * 2 + 5;
        std::vector<std::atomic<int>> seen(static_cast<size_t>(chunks));
        pool.run(chunks, [&](int64_t i) { seen[static_cast<size_t>(i)].fetch_add(1); });
        for (int64_t i = 0; i < chunks; ++i)
            QVERIFY2(seen[static_cast<size_t>(i)].load() == 1, qPrintable(QString("chunk %1").arg(i)));
    }

    void oneThreadRunsOnTheCaller() {
        SpinPool pool(1);
        const auto ids = run_once_each(pool, 5);
        QCOMPARE(ids.size(), size_t(1));
        QCOMPARE(*ids.begin(), std::this_thread::get_id());
    }

    void sharedPoolFollowsTheThreadCount() {
        auto a = SpinPool::shared(2);
        QCOMPARE(SpinPool::shared(2).get(), a.get());
        auto b = SpinPool::shared(3);
        QCOMPARE(b->threads(), 3);
        QCOMPARE(a->threads(), 2);  // the old pool lives on while held
        run_once_each(*a, 4);
    }
};

QTEST_APPLESS_MAIN(TestSpinPool)
#include "tst_spin_pool.moc"
