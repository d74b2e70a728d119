// Export of a run's checkpoint to other tools' formats, off the UI thread, for File → Export model…:
// the list of formats (each with the engine's check of whether it can hold a run and the engine call
// that writes it), which formats a run's checkpoint can use and why not, and the export itself. Lives
// on its own QThread, owned by the ExportDialog; every slot catches engine errors and emits failed().
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>
#include <QVector>
#include <functional>
#include <string>

/// One export format. Adding one is one entry in exportFormats().
struct ExportFormat {
    QString id;              // "gguf-f32"
    const char* label = "";  // what the dialog lists, untranslated (shown as QObject::tr(label))
    QString suffix;          // the file's extension ("gguf"); "" = the output is a folder
    /// "" when the run's checkpoint can be written in this format, else why not (engine call; may read files).
    std::function<std::string(const std::string& run, const std::string& checkpoint)> blocker;
    /// Writes the checkpoint to out; returns a one-line summary (engine call).
    std::function<std::string(const std::string& run, const std::string& checkpoint, const std::string& out)> write;
};

/// Every format the GUI offers, in the order listed.
const QVector<ExportFormat>& exportFormats();

class ExportWorker : public QObject {
    Q_OBJECT
public:
    explicit ExportWorker(QObject* parent = nullptr) : QObject(parent) {}

public slots:
    /// Emits checked() with one reason per format of exportFormats() ("" = usable).
    void check(quint64 id, const QString& run, const QString& checkpoint);
    void exportRun(quint64 id, int format, const QString& run, const QString& checkpoint, const QString& out);

signals:
    void checked(quint64 id, const QStringList& reasons);
    void exported(quint64 id, const QString& file, const QString& summary);
    void failed(quint64 id, const QString& error);
};

/// An ExportWorker on its own thread; quits and waits on destruction.
class ExportThread : public QObject {
    Q_OBJECT
public:
    explicit ExportThread(QObject* parent = nullptr);
    ~ExportThread() override;
    ExportWorker* worker() const { return m_worker; }

private:
    QThread m_thread;
    ExportWorker* m_worker;
};
