#include "ui/TextDiff.h"

#include <QStringList>
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
/// Two lines are alike when what they share at the start and end covers half the longer one.
bool similar(const QString& x, const QString& y) {
    const qsizetype longer = std::max(x.size(), y.size());
    if (longer == 0)
        return true;
    qsizetype p = 0;
    while (p < x.size() && p < y.size() && x[p] == y[p])
        ++p;
    qsizetype s = 0;
    while (s < x.size() - p && s < y.size() - p && x[x.size() - 1 - s] == y[y.size() - 1 - s])
        ++s;
    return 2 * (p + s) >= longer;
}

struct LineDiff {
    QString before, after;
    int changed = 0;  // code units of the before line that are not in the after line
};

/// Character-level diff of one changed line (longest common subsequence); very long lines fall back to
/// highlighting everything between their common prefix and suffix.
LineDiff diff_line(const QString& x, const QString& y) {
    int p = 0;
    while (p < x.size() && p < y.size() && x[p] == y[p])
        ++p;
    int s = 0;
    while (s < x.size() - p && s < y.size() - p && x[x.size() - 1 - s] == y[y.size() - 1 - s])
        ++s;
    const QString xm = x.mid(p, x.size() - p - s), ym = y.mid(p, y.size() - p - s);
    LineDiff out;
    const qsizetype n = xm.size(), m = ym.size();
    if (n * m > 250000) {
        out.before = esc(x.left(p)) + mark(xm, "#ffc9c9") + esc(x.right(s));
        out.after = esc(y.left(p)) + mark(ym, "#c9f2c9") + esc(y.right(s));
        out.changed = static_cast<int>(n);
        return out;
    }
    std::vector<std::vector<int>> L(static_cast<size_t>(n + 1), std::vector<int>(static_cast<size_t>(m + 1), 0));
    for (qsizetype i = n - 1; i >= 0; --i)
        for (qsizetype j = m - 1; j >= 0; --j)
            L[i][j] = xm[i] == ym[j] ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
    QString b = esc(x.left(p)), a = esc(y.left(p)), runB, runA;
    auto flush = [&] {
        b += mark(runB, "#ffc9c9");
        a += mark(runA, "#c9f2c9");
        out.changed += static_cast<int>(runB.size());
        runB.clear();
        runA.clear();
    };
    qsizetype i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && xm[i] == ym[j]) {
            flush();
            b += esc(QString(xm[i++]));
            a += esc(QString(ym[j++]));
        } else if (j >= m || (i < n && L[i + 1][j] >= L[i][j + 1])) {
            runB += xm[i++];
        } else {
            runA += ym[j++];
        }
    }
    flush();
    out.before = b + esc(x.right(s));
    out.after = a + esc(y.right(s));
    return out;
}
}  // namespace

TextDiff diff_texts(const QString& before, const QString& after, int maxLines) {
    const QStringList a = before.split('\n').mid(0, maxLines), b = after.split('\n').mid(0, maxLines);
    const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
    std::vector<std::vector<int>> L(static_cast<size_t>(n + 1), std::vector<int>(static_cast<size_t>(m + 1), 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            L[i][j] = a[i] == b[j] ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
    TextDiff d;
    QString& ha = d.beforeHtml;
    QString& hb = d.afterHtml;
    // Unmatched runs between matches: pair them up as changed lines, the rest removed or added.
    QStringList pendA, pendB;
    auto removed = [&](const QString& x) {
        ha += QStringLiteral("<span style=\"background:#ffc9c9;text-decoration:line-through\">%1</span><br>")
                  .arg(x.isEmpty() ? QStringLiteral("&nbsp;") : esc(x));
        ++d.linesRemoved;
        d.charsChanged += static_cast<int>(x.size());
    };
    auto added = [&](const QString& y) {
        hb += mark(y, "#c9f2c9") + "<br>";
    };
    // An unmatched stretch: pair lines that are alike (an alignment over "similar" lines) as changed
    // lines; the rest are removed or added.
    auto flush = [&] {
        const qsizetype ka = pendA.size(), kb = pendB.size();
        std::vector<std::vector<int>> S(static_cast<size_t>(ka + 1), std::vector<int>(static_cast<size_t>(kb + 1), 0));
        for (qsizetype x = ka - 1; x >= 0; --x)
            for (qsizetype y = kb - 1; y >= 0; --y)
                S[x][y] = similar(pendA[x], pendB[y]) ? S[x + 1][y + 1] + 1 : std::max(S[x + 1][y], S[x][y + 1]);
        qsizetype x = 0, y = 0;
        while (x < ka || y < kb) {
            if (x < ka && y < kb && similar(pendA[x], pendB[y]) && S[x][y] == S[x + 1][y + 1] + 1) {
                const auto [bx, ay, changed] = diff_line(pendA[x++], pendB[y++]);
                ha += bx + "<br>";
                hb += ay + "<br>";
                ++d.linesChanged;
                d.charsChanged += changed;
            } else if (y >= kb || (x < ka && S[x + 1][y] >= S[x][y + 1])) {
                removed(pendA[x++]);
            } else {
                added(pendB[y++]);
            }
        }
        pendA.clear();
        pendB.clear();
    };
    int i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            flush();
            ha += esc(a[i]) + "<br>";
            hb += esc(b[j]) + "<br>";
            ++i, ++j;
        } else if (j >= m || (i < n && L[i + 1][j] >= L[i][j + 1])) {
            pendA << a[i++];
        } else {
            pendB << b[j++];
        }
    }
    flush();
    const QString wrap = QStringLiteral("<div style=\"white-space:pre-wrap;font-family:monospace\">%1</div>");
    ha = wrap.arg(ha);
    hb = wrap.arg(hb);
    return d;
}
