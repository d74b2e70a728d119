// What a running job's two sides share: the cancel flag the work polls and the latest progress it
// reported. The work's thread writes, the UI thread reads; nothing here is a QObject.
#pragma once
#include <QString>
#include <atomic>
#include <mutex>

struct JobState {
    std::atomic<bool> cancel{false};
    std::atomic<bool> progressPosted{false};  // a progress update is on its way to the UI thread
    std::mutex mutex;                         // guards the two below
    double fraction = -1;                     // 0..1; below 0 when the work cannot say how far it is
    QString text;
};
