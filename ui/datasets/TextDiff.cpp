#include "ui/datasets/TextDiff.h"

#include <QStringList>
#include <utility>
#include <vector>

namespace {
QString esc(const QString& s) {
    QString out = s.toHtmlEscaped();
    out.replace('\t', QStringLiteral("<span style=\"color:#aaa\">→</span>"));
    return out;
}
QString mark(const QString& s, const char* colour) {
    return s.isEmpty() ? QString() : QStringLiteral("<span style=\"background:%1\">%2</span>").arg(colour, esc(s));
}

/// Lengths of the common start and the common end of two strings (not overlapping).
std::pair<qsizetype, qsizetype> common_ends(const QString& x, const QString& y) {
    qsizetype p = 0;
    while (p < x.size() && p < y.size() && x[p] == y[p])
        ++p;
    qsizetype s = 0;
    while (s < x.size() - p && s < y.size() - p && x[x.size() - 1 - s] == y[y.size() - 1 - s])
        ++s;
    return {p, s};
}

/// Two lines are alike when what they share covers half the longer one: first their common start and
/// end (cheap), else their longest common subsequence of characters, so a line whose first and last
/// characters changed (curly quotes made straight) is still a changed line, not a removed one.
bool similar(const QString& x, const QString& y) {
    const qsizetype longer = std::max(x.size(), y.size());
    const auto [p, s] = common_ends(x, y);
    if (longer == 0 || 2 * (p + s) >= longer)
        return true;
    const QString xm = x.mid(p, x.size() - p - s), ym = y.mid(p, y.size() - p - s);
    if (xm.size() * ym.size() > 250000)
        return false;
    std::vector<int> row(static_cast<size_t>(ym.size() + 1), 0), next(row.size(), 0);
    for (qsizetype i = xm.size() - 1; i >= 0; --i) {
        for (qsizetype j = ym.size() - 1; j >= 0; --j)
            next[j] = xm[i] == ym[j] ? row[j + 1] + 1 : std::max(row[j], next[j + 1]);
        std::swap(row, next);
    }
    return 2 * (p + s + row[0]) >= longer;
}

/// Aligns a[0..n) with b[0..m) by a longest common subsequence under eq(i, j) and walks the alignment
/// in order: both(i, j) for a matched pair, onlyA(i) / onlyB(j) for the rest.
template <class Eq, class Both, class OnlyA, class OnlyB>
void align(qsizetype n, qsizetype m, Eq eq, Both both, OnlyA onlyA, OnlyB onlyB) {
    std::vector<std::vector<int>> L(static_cast<size_t>(n + 1), std::vector<int>(static_cast<size_t>(m + 1), 0));
    for (qsizetype i = n - 1; i >= 0; --i)
        for (qsizetype j = m - 1; j >= 0; --j)
            L[i][j] = eq(i, j) ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
    qsizetype i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && eq(i, j) && L[i][j] == L[i + 1][j + 1] + 1)
            both(i++, j++);
        else if (j >= m || (i < n && L[i + 1][j] >= L[i][j + 1]))
            onlyA(i++);
        else
            onlyB(j++);
    }
}

struct LineDiff {
    QString before, after;
    int changed = 0;  // code units of the before line that are not in the after line
};

/// Character-level diff of one changed line; very long lines fall back to highlighting everything
/// between their common start and end.
LineDiff diff_line(const QString& x, const QString& y) {
    const auto [p, s] = common_ends(x, y);
    const QString xm = x.mid(p, x.size() - p - s), ym = y.mid(p, y.size() - p - s);
    LineDiff out;
    QString b = esc(x.left(p)), a = esc(y.left(p));
    if (xm.size() * ym.size() > 250000) {
        b += mark(xm, "#ffc9c9");
        a += mark(ym, "#c9f2c9");
        out.changed = static_cast<int>(xm.size());
    } else {
        QString runB, runA;  // consecutive changed characters are marked as one run
        auto flush = [&] {
            b += mark(runB, "#ffc9c9");
            a += mark(runA, "#c9f2c9");
            out.changed += static_cast<int>(runB.size());
            runB.clear();
            runA.clear();
        };
        align(
            xm.size(), ym.size(), [&](qsizetype i, qsizetype j) { return xm[i] == ym[j]; },
            [&](qsizetype i, qsizetype j) {
                flush();
                b += esc(QString(xm[i]));
                a += esc(QString(ym[j]));
            },
            [&](qsizetype i) { runB += xm[i]; }, [&](qsizetype j) { runA += ym[j]; });
        flush();
    }
    out.before = b + esc(x.right(s));
    out.after = a + esc(y.right(s));
    return out;
}
}  // namespace

TextDiff diff_texts(const QString& before, const QString& after, int maxLines) {
    const QStringList a = before.split('\n').mid(0, maxLines), b = after.split('\n').mid(0, maxLines);
    TextDiff d;
    QString& ha = d.beforeHtml;
    QString& hb = d.afterHtml;
    // Lines without an equal partner, between two equal ones: lines that are alike are paired as changed
    // lines (a second alignment, over "similar"), the rest are removed or added.
    QStringList pendA, pendB;
    auto flush = [&] {
        align(
            pendA.size(), pendB.size(), [&](qsizetype i, qsizetype j) { return similar(pendA[i], pendB[j]); },
            [&](qsizetype i, qsizetype j) {
                const auto [bx, ay, changed] = diff_line(pendA[i], pendB[j]);
                ha += bx + "<br>";
                hb += ay + "<br>";
                ++d.linesChanged;
                d.charsChanged += changed;
            },
            [&](qsizetype i) {
                const QString& x = pendA[i];
                ha += QStringLiteral("<span style=\"background:#ffc9c9;text-decoration:line-through\">%1</span><br>")
                          .arg(x.isEmpty() ? QStringLiteral("&nbsp;") : esc(x));
                ++d.linesRemoved;
                d.charsChanged += static_cast<int>(x.size());
            },
            [&](qsizetype j) { hb += mark(pendB[j], "#c9f2c9") + "<br>"; });
        pendA.clear();
        pendB.clear();
    };
    align(
        a.size(), b.size(), [&](qsizetype i, qsizetype j) { return a[i] == b[j]; },
        [&](qsizetype i, qsizetype j) {
            flush();
            ha += esc(a[i]) + "<br>";
            hb += esc(b[j]) + "<br>";
        },
        [&](qsizetype i) { pendA << a[i]; }, [&](qsizetype j) { pendB << b[j]; });
    flush();
    const QString wrap = QStringLiteral("<div style=\"white-space:pre-wrap;font-family:monospace\">%1</div>");
    ha = wrap.arg(ha);
    hb = wrap.arg(hb);
    return d;
}
