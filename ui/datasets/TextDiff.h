// Before/after views of cleaned text: lines aligned by a longest-common-subsequence match, changed
// lines with their differing middle highlighted, removed lines struck through, as HTML for two
// side-by-side views, with counts of what changed.
#pragma once
#include <QString>

struct TextDiff {
    QString beforeHtml, afterHtml;
    int linesChanged = 0, linesRemoved = 0;
    int charsChanged = 0;  // code points highlighted in the before view
};

/// Diff of two texts; long inputs are compared over their first max_lines lines.
TextDiff diff_texts(const QString& before, const QString& after, int max_lines = 400);
