// A plot's y-axis title that fits its axis: the whole title, or its short form where the whole one is longer
// than the axis is high (at 150% text "final validation loss" and "smoothed training loss" were cut at the top).
// Chosen again at each layout of the plot. The sweep plots, the range finder and the embedding map use it.
#pragma once
#include <QString>

class QCustomPlot;

/// Sets (or changes) the titles; the first call also makes the plot choose between them after each layout.
void setFittedYLabel(QCustomPlot* p, const QString& full, const QString& brief);
