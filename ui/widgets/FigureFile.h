// A widget's picture as a file, for the views' "Export figure…": PNG (the widget grabbed) or SVG (the widget
// painted into an SVG generator), by the file's extension, written to a temporary file renamed at the end.
#pragma once
#include <QString>

class QWidget;

/// Writes w to path as .svg or (any other extension) .png; false when the file cannot be written.
bool saveFigure(QWidget* w, const QString& path);
/// Asks for a file (PNG or SVG) and writes w there; returns the error to show, empty when written or
/// when the user cancelled.
QString exportFigure(QWidget* w, QWidget* parent, const QString& title);
