#include "ui/widgets/FigureFile.h"

#include "twb/text.h"

#include <QFileDialog>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

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
    const QString f =
        QFileDialog::getSaveFileName(parent, title, QString(), QObject::tr("PNG image (*.png);;SVG (*.svg)"));
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
    const QString f = QFileDialog::getSaveFileName(
        parent, title, QString(), QObject::tr("CSV (*.csv);;JSON (*.json);;PNG image (*.png);;SVG (*.svg)"));
    if (f.isEmpty())
        return {};
    const bool picture = f.endsWith(".png", Qt::CaseInsensitive) || f.endsWith(".svg", Qt::CaseInsensitive);
    if (picture ? saveFigure(w, f) : saveNumbersTo(f))
        return {};
    return QObject::tr("Cannot write %1: check the folder exists and is writable.").arg(f);
}
