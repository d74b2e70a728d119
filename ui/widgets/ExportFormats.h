// The formats of File → Export model…: each with the engine's check of whether it can hold a run and
// the engine call that writes it; which formats a run's checkpoint can use and why not, and the export
// itself. The calls block: ExportDialog runs them as jobs on the JobsService.
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
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

/// One reason per format of exportFormats() for this run's checkpoint ("" = usable); engine calls that may
/// read files: run off the UI thread. Throws what the engine throws.
QStringList exportBlockers(const QString& run, const QString& checkpoint);

/// Writes the checkpoint in exportFormats()[format] to out and returns a one-line summary; engine call,
/// off the UI thread. Throws InputError for a format out of range and what the engine throws.
QString exportRun(int format, const QString& run, const QString& checkpoint, const QString& out);
