#include "ui/widgets/FigureFile.h"

#include "twb/text.h"

#include <QFileDialog>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

QString withChosenExtension(const QString& file, const QString& chosenFilter, const QString& allFilters) {
    if (file.isEmpty())
        return file;
    static const QRegularExpression pattern("\\*(\\.[A-Za-z0-9]+)");
    for (auto m = pattern.globalMatch(allFilters); m.hasNext();)
        if (file.endsWith(m.next().captured(1), Qt::CaseInsensitive))
            return file;
    const auto chosen = pattern.match(chosenFilter.isEmpty() ? allFilters : chosenFilter);
    return chosen.hasMatch() ? file + chosen.captured(1) : file;
}

namespace {
QString askForFile(QWidget* parent, const QString& title, const QString& filters) {
    QString chosen;
    const QString f = QFileDialog::getSaveFileName(parent, title, QString(), filters, &chosen);
    return withChosenExtension(f, chosen, filters);
}
}  // namespace

bool saveFigure(QWidget* w, const QString& path) {
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return false;
    if (path.endsWith(".svg", Qt::CaseInsensitive)) {
        QSvgGenerator gen;
        gen.setOutputDevice(&out);
        gen.setSize(w->size());
        gen.setViewBox(w->rect());
        QPainter painter(&gen);
        w->render(&painter);
        if (!painter.end())
            return false;
    } else if (!w->grab().save(&out, "PNG")) {
        return false;
    }
    return out.commit();
}

QString exportFigure(QWidget* w, QWidget* parent, const QString& title) {
    const QString f = askForFile(parent, title, QObject::tr("PNG image (*.png);;SVG (*.svg)"));
    if (f.isEmpty() || saveFigure(w, f))
        return {};
    return QObject::tr("Cannot write %1: check the folder exists and is writable.").arg(f);
}

bool saveNumbers(const QString& path, const std::function<std::string()>& json,
                 const std::function<std::string()>& csv) {
    try {
        twb::write_file_atomic(path.toStdString(), path.endsWith(".json", Qt::CaseInsensitive) ? json() : csv());
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

QString exportFigureOrNumbers(QWidget* w, QWidget* parent, const QString& title,
                              const std::function<bool(const QString&)>& saveNumbersTo) {
    const QString f =
        askForFile(parent, title, QObject::tr("CSV (*.csv);;JSON (*.json);;PNG image (*.png);;SVG (*.svg)"));
    if (f.isEmpty())
        return {};
    const bool picture = f.endsWith(".png", Qt::CaseInsensitive) || f.endsWith(".svg", Qt::CaseInsensitive);
    if (picture ? saveFigure(w, f) : saveNumbersTo(f))
        return {};
    return QObject::tr("Cannot write %1: check the folder exists and is writable.").arg(f);
}
