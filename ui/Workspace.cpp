#include "ui/Workspace.h"

#include "twb/dataset.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>

QString Workspace::root() {
    QSettings s;
    QString r = s.value("workspace").toString();
    if (r.isEmpty())
        r = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + "/transformer-workbench";
    QDir().mkpath(r);
    return r;
}

void Workspace::setRoot(const QString& path) {
    QSettings().setValue("workspace", path);
}

QString Workspace::problemAtStart() {
    const QString chosen = QSettings().value("workspace").toString();
    if (chosen.isEmpty())
        return {};
    const QFileInfo f(chosen);
    if (!f.exists())
        return QObject::tr("The workspace folder %1 does not exist (is it on a drive that is not mounted?).")
            .arg(chosen);
    if (!f.isDir())
        return QObject::tr("The workspace %1 is a file, not a folder.").arg(chosen);
    return {};
}

QString Workspace::folderName(const QString& typed) {
    QString name = typed.trimmed();
    name.replace(QRegularExpression("[^\\p{L}\\p{N}\\p{M}._-]+"), "-");
    name.remove(QRegularExpression("^[.-]+"));
    name = name.left(80);
    name.remove(QRegularExpression("[.-]+$"));
    return name;
}

QString Workspace::sweepsDir() {
    return root() + "/sweeps";
}

QString Workspace::runsDir() {
    const QString d = root() + "/runs";
    QDir().mkpath(d);
    return d;
}

QString Workspace::datasetsDir() {
    const QString d = root() + "/datasets";
    QDir().mkpath(d);
    return d;
}

QStringList Workspace::runs() {
    QStringList out;
    const auto entries = QDir(runsDir()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (const auto& e : entries)
        if (QFileInfo::exists(e.filePath() + "/config.json"))
            out << e.filePath();
    return out;
}

QStringList Workspace::sweepCells() {
    QStringList out;
    const auto sweeps = QDir(sweepsDir()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (const auto& s : sweeps)
        for (const auto& c : QDir(s.filePath()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            if (QFileInfo::exists(c.filePath() + "/config.json"))
                out << c.filePath();
    return out;
}

QStringList Workspace::datasets() {
    QStringList out;
    for (const auto& d : twb::list_prepared(datasetsDir().toStdString()))
        out << QString::fromStdString(d.dir.string());
    return out;
}

QString Workspace::newRunPath(const QString& stem) {
    const QString base = runsDir() + "/" + stem + "-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss");
    QString p = base;
    for (int i = 2; QFileInfo::exists(p); ++i)
        p = base + "-" + QString::number(i);
    return p;
}

QStringList Workspace::recentRuns() {
    return QSettings().value("recentRuns").toStringList();
}

void Workspace::addRecentRun(const QString& path) {
    QStringList r = recentRuns();
    r.removeAll(path);
    r.prepend(path);
    while (r.size() > 8)
        r.removeLast();
    QSettings().setValue("recentRuns", r);
}

double Workspace::trainingSpeed() {
    return QSettings().value("experiments/flopsPerSecond", 0.0).toDouble();
}

void Workspace::rememberTrainingSpeed(double parameters, double tokensPerSecond) {
    if (parameters > 0 && tokensPerSecond > 0)
        QSettings().setValue("experiments/flopsPerSecond", 6.0 * parameters * tokensPerSecond);
}

QString Workspace::runName(const QString& dir) {
    try {
        const auto info = twb::read_run_info(dir.toStdString());
        if (!info.name.empty())
            return QString::fromStdString(info.name);
    } catch (const std::exception&) {
    }
    return QFileInfo(dir).fileName();
}

QString Workspace::runLabel(const QString& dir) {
    // An unnamed run is a time stamp: its dataset (and "translation" for an encoder-decoder) tells two apart
    // in the run choosers, which listed run-20261129-074437 and run-20261129-074218 alone; a named run keeps
    // them too, in brackets with its folder (it dropped them, unlike the runs beside it)
    const QString folder = QFileInfo(dir).fileName(), name = runName(dir);
    QString where = folder;
    try {
        const auto c = twb::read_run_config(dir.toStdString());
        if (!c.data_dir.empty()) {
            const QString data = QFileInfo(QString::fromStdString(c.data_dir)).fileName();
            where = c.model_kind == twb::ModelKind::EncoderDecoder
                        ? QObject::tr("%1 · %2, translation").arg(folder, data)
                        : QStringLiteral("%1 · %2").arg(folder, data);
        }
    } catch (const std::exception&) {
    }
    return name != folder ? QStringLiteral("%1 (%2)").arg(name, where) : where;
}
