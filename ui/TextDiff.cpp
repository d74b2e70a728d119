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
    auto flush = [&] {
        const int k = static_cast<int>(std::min(pendA.size(), pendB.size()));
        for (int i = 0; i < k; ++i) {
            const QString& x = pendA[i];
            const QString& y = pendB[i];
            int p = 0;
            while (p < x.size() && p < y.size() && x[p] == y[p])
                ++p;
            int s = 0;
            while (s < x.size() - p && s < y.size() - p && x[x.size() - 1 - s] == y[y.size() - 1 - s])
                ++s;
            ha += esc(x.left(p)) + mark(x.mid(p, x.size() - p - s), "#ffc9c9") + esc(x.right(s)) + "<br>";
            hb += esc(y.left(p)) + mark(y.mid(p, y.size() - p - s), "#c9f2c9") + esc(y.right(s)) + "<br>";
            ++d.linesChanged;
            d.charsChanged += static_cast<int>(x.size() - p - s);
        }
        for (int i = k; i < pendA.size(); ++i) {
            ha += QStringLiteral("<span style=\"background:#ffc9c9;text-decoration:line-through\">%1</span><br>")
                      .arg(pendA[i].isEmpty() ? QStringLiteral("&nbsp;") : esc(pendA[i]));
            ++d.linesRemoved;
            d.charsChanged += static_cast<int>(pendA[i].size());
        }
        for (int i = k; i < pendB.size(); ++i) {
            hb += mark(pendB[i], "#c9f2c9") + "<br>";
            ++d.linesAdded;
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
