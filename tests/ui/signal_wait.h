// Waiting for a signal that a worker thread sends. QSignalSpy::wait(ms) waits for one signal more than
// the spy holds when the wait begins, so it misses one sent between the start of the job and the wait
// (a fast job on a busy machine) and then fails after the whole timeout: wait for a count instead.
#pragma once

#include <QSignalSpy>
#include <QTest>

namespace twbtest {

/// True once `spy` holds at least `count` signals, false after `ms` milliseconds without them.
inline bool wait_for(const QSignalSpy& spy, int count, int ms) {
    return QTest::qWaitFor([&] { return spy.count() >= count; }, ms);
}

}  // namespace twbtest
