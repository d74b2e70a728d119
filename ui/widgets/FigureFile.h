// A widget's picture as a file, for the views' "Export figure…": PNG (the widget grabbed) or SVG (the widget
// painted into an SVG generator), by the file's extension, written to a temporary file renamed at the end.
#pragma once
#include <QString>
#include <functional>
#include <string>

class QWidget;

/// The file a save dialog returned, with the extension of the type chosen in it ("(*.png)") where the
/// name typed has none of the types offered ("plots" was written as a PNG named "plots").
QString withChosenExtension(const QString& file, const QString& chosenFilter, const QString& allFilters);
/// Writes w to path as .svg or (any other extension) .png; false when the file cannot be written.
bool saveFigure(QWidget* w, const QString& path);
/// Asks for a file (PNG or SVG) and writes w there; returns the error to show, empty when written or
/// when the user cancelled.
QString exportFigure(QWidget* w, QWidget* parent, const QString& title);
/// Writes a view's numbers to path: json() for a .json file, else csv(), through a temporary renamed at the
/// end; false when the file cannot be written.
bool saveNumbers(const QString& path, const std::function<std::string()>& json,
                 const std::function<std::string()>& csv);
/// Asks for a file (CSV, JSON, PNG or SVG) and writes the numbers or w's picture there; returns the error
/// to show, empty when written or when the user cancelled.
QString exportFigureOrNumbers(QWidget* w, QWidget* parent, const QString& title,
                              const std::function<bool(const QString&)>& saveNumbersTo);
