// Downloads a catalogue entry's files into the workspace cache with Qt's network stack (asynchronous,
// on the UI thread's event loop, never blocking it): progress, resume of an interrupted download
// (HTTP Range on the kept .part file), gzip unpacking, sha256 check of every file, cancel, and
// messages that say what went wrong and what to do (offline, HTTP errors, checksum mismatch).
#pragma once
#include "twb/catalogue.h"

#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>

class QNetworkReply;

class Downloader : public QObject {
    Q_OBJECT
public:
    explicit Downloader(QObject* parent = nullptr);
    /// Fetches every file of entry missing or broken in dir (files already intact are skipped).
    void start(const twb::CatalogueEntry& entry, const QString& dir);
    void cancel();
    bool isRunning() const { return !m_reply.isNull(); }
    /// Where a catalogue entry is cached in the workspace.
    static QString cacheDir(const QString& name);

signals:
    /// Bytes of the whole entry so far and in all (total 0 when unknown); file being fetched.
    void progress(qint64 done, qint64 total, const QString& file);
    void finished(const QString& dir);
    void failed(const QString& error);

private:
    void nextFile();
    void fileDone();
    void fail(const QString& error);
    QString partPath() const;

    QNetworkAccessManager m_net;
    QPointer<QNetworkReply> m_reply;
    twb::CatalogueEntry m_entry;
    QString m_dir;
    int m_index = -1;
    QFile m_part;
    qint64 m_resumeFrom = 0, m_doneBefore = 0, m_total = 0;
    bool m_cancelled = false;
    int m_status = -1;  // HTTP status of the current reply, -1 until its first data
};
