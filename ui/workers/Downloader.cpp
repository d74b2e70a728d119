#include "ui/workers/Downloader.h"

#include "twb/catalogue.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "ui/Workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QNetworkReply>
#include <QNetworkRequest>

Downloader::Downloader(QObject* parent) : QObject(parent) {}

QString Downloader::cacheDir(const QString& name) {
    return Workspace::root() + "/downloads/" + name;
}

void Downloader::start(const twb::CatalogueEntry& entry, const QString& dir) {
    if (isRunning())
        return;
    m_entry = entry;
    m_dir = dir;
    m_index = -1;
    m_cancelled = false;
    m_doneBefore = 0;
    m_total = static_cast<qint64>(entry.total_bytes());
    if (entry.files.empty())
        return fail(tr("'%1' has nothing to download: it is read from %2")
                        .arg(QString::fromStdString(entry.name), QString::fromStdString(entry.local_path)));
    if (!QDir().mkpath(dir))
        return fail(tr("Cannot create %1: check the workspace folder is writable.").arg(dir));
    nextFile();
}

void Downloader::cancel() {
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
}

QString Downloader::partPath() const {
    const auto& f = m_entry.files[static_cast<size_t>(m_index)];
    return m_dir + "/" + QString::fromStdString(f.path) + (f.gzip ? ".gz.part" : ".part");
}

void Downloader::fail(const QString& error) {
    if (m_part.isOpen())
        m_part.close();
    // A part that holds nothing (the server was never reached) is no start to resume from: leave no file.
    if (!m_part.fileName().isEmpty() && QFileInfo(m_part.fileName()).size() == 0)
        QFile::remove(m_part.fileName());
    emit failed(error);
}

void Downloader::nextFile() {
    ++m_index;
    if (m_index > 0)
        m_doneBefore += static_cast<qint64>(m_entry.files[static_cast<size_t>(m_index - 1)].bytes);
    if (m_index >= static_cast<int>(m_entry.files.size())) {
        emit progress(m_total, m_total, QString());
        emit finished(m_dir);
        return;
    }
    const auto& f = m_entry.files[static_cast<size_t>(m_index)];
    if (twb::cached_file_ok(m_dir.toStdString(), f))
        return nextFile();  // already here and intact
    QDir().mkpath(QFileInfo(m_dir + "/" + QString::fromStdString(f.path)).absolutePath());
    m_part.setFileName(partPath());
    m_resumeFrom = m_part.exists() ? m_part.size() : 0;
    if (!m_part.open(QIODevice::ReadWrite))
        return fail(tr("Cannot write %1: check the workspace folder is writable.").arg(partPath()));
    QNetworkRequest req(QUrl(QString::fromStdString(f.url)));
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    req.setTransferTimeout(30000);
    if (m_resumeFrom > 0)
        req.setRawHeader("Range", "bytes=" + QByteArray::number(m_resumeFrom) + "-");
    m_status = -1;
    m_reply = m_net.get(req);
    connect(m_reply, &QNetworkReply::readyRead, this, [this] {
        if (m_status < 0) {  // the first data of this reply: decide whether it continues the part
            m_status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (m_status == 206 && m_resumeFrom > 0)
                m_part.seek(m_resumeFrom);  // the server continues the file
            else if (m_status < 400) {
                m_resumeFrom = 0;  // a whole file (the server ignored the range): start over
                m_part.resize(0);
                m_part.seek(0);
            }
        }
        if (m_status >= 400)
            m_reply->readAll();  // an error page is not the file
        else
            m_part.write(m_reply->readAll());
    });
    connect(m_reply, &QNetworkReply::downloadProgress, this, [this](qint64 got, qint64) {
        emit progress(m_doneBefore + m_resumeFrom + got, m_total,
                      QString::fromStdString(m_entry.files[static_cast<size_t>(m_index)].path));
    });
    connect(m_reply, &QNetworkReply::finished, this, &Downloader::fileDone);
}

void Downloader::fileDone() {
    QNetworkReply* reply = m_reply;
    reply->deleteLater();
    m_reply.clear();
    if (reply->bytesAvailable() > 0 && reply->error() == QNetworkReply::NoError && m_status < 400)
        m_part.write(reply->readAll());
    const auto& f = m_entry.files[static_cast<size_t>(m_index)];
    const QString name = QString::fromStdString(f.path);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_cancelled) {
        const qint64 kept = m_part.size();
        m_part.close();
        return fail(
            tr("Download cancelled. %1 bytes of %2 are kept; Download again resumes from there.").arg(kept).arg(name));
    }
    if (reply->error() != QNetworkReply::NoError) {
        const qint64 kept = m_part.size();
        m_part.close();
        if (status == 416 && m_resumeFrom > 0) {
            // The kept part cannot be continued (already whole, or the file changed): start it over.
            QFile::remove(partPath());
            --m_index;
            m_doneBefore -= m_index >= 0 ? static_cast<qint64>(m_entry.files[static_cast<size_t>(m_index)].bytes) : 0;
            return nextFile();
        }
        if (status >= 400)
            return fail(tr("The server answered HTTP %1 for %2. The catalogue's address may be out of date; fetch the "
                           "file by hand and put it in %3.")
                            .arg(status)
                            .arg(reply->url().toString(), m_dir));
        switch (reply->error()) {
            case QNetworkReply::HostNotFoundError:
            case QNetworkReply::ConnectionRefusedError:
            case QNetworkReply::TimeoutError:
            case QNetworkReply::OperationCanceledError:
            case QNetworkReply::TemporaryNetworkFailureError:
            case QNetworkReply::NetworkSessionFailedError:
            case QNetworkReply::UnknownNetworkError:
            case QNetworkReply::ProxyConnectionRefusedError:
                return fail(
                    tr("Could not reach %1 (%2): you may be offline. Check the connection and try again, or copy "
                       "%3 into %4 by hand.")
                        .arg(reply->url().host(), reply->errorString(), name, m_dir));
            default:
                return fail(tr("The download of %1 was interrupted (%2). %3 bytes are kept; Download again resumes.")
                                .arg(name, reply->errorString())
                                .arg(kept));
        }
    }
    m_part.close();
    const QString final = m_dir + "/" + name;
    try {
        QFile::remove(final);
        if (f.gzip) {
            const QString gz = m_dir + "/" + name + ".gz";
            QFile::remove(gz);
            QFile::rename(partPath(), gz);
            twb::gunzip_file(gz.toStdString(), final.toStdString());
            QFile::remove(gz);
        } else {
            QFile::rename(partPath(), final);
        }
    } catch (const std::exception& e) {
        QFile::remove(final);
        QFile::remove(m_dir + "/" + name + ".gz");
        return fail(tr("%1 arrived broken: %2").arg(name, QString::fromStdString(e.what())));
    }
    if (!f.sha256.empty()) {
        const std::string got = twb::sha256_file(final.toStdString());
        if (got != f.sha256) {
            QFile::remove(final);
            return fail(tr("Checksum mismatch for %1: expected sha256 %2, got %3. The download was corrupted or the "
                           "file on the server changed; the bad file was deleted. Try again.")
                            .arg(name, QString::fromStdString(f.sha256), QString::fromStdString(got)));
        }
    }
    nextFile();
}
