// The output both Sampling console modes show (LM samples, a translation): the streamed tokens, each tinted
// by its probability, with its alternatives in a tooltip on hover and, on a click, in the list beside the
// text under a title. It draws token sequences its owner keeps (setSamples: one per sample, drawn after a
// shared prefix) and says which token and which alternative were clicked; what a click means (branching,
// or nothing) and the titles' wording are the owner's.
#pragma once
#include "ui/workers/ModelWorker.h"

#include <QVector>
#include <QWidget>

class QLabel;
class QListWidget;
class QTextBrowser;
class QUrl;

class TokenOutputView : public QWidget {
    Q_OBJECT
public:
    /// name: the text view's object name ("output", "translation"); alternativesName the list's; hint: the
    /// title while no token is chosen.
    TokenOutputView(const QString& name, const QString& alternativesName, const QString& placeholder,
                    const QString& hint, QWidget* parent = nullptr);

    /// The sequences to draw, kept by the owner (the pointer must stay valid); the prefix (HTML) is drawn
    /// before each sample, and "— sample N —" above each when there are several.
    void setSamples(const QVector<QVector<UiToken>>* samples) { m_samples = samples; }
    void setPrefixHtml(const QString& html) { m_prefix = html; }
    /// Redraws; follow: stay scrolled to the end when the view was there (tokens streaming in).
    void render(bool follow = false);
    /// Forgets the chosen token and empties the alternatives (the title stays).
    void clearSelection();
    /// The title back to the hint.
    void showHint() { setTitle(m_hint); }
    /// Chooses a token: lists its alternatives (the chosen one bold) under `title` and redraws. The first
    /// `drawable` alternatives are those the sampler could draw; the rest (outside top-k or top-p) are greyed,
    /// said so on hover. -1: all of them.
    void select(int sample, int index, const QString& title, int drawable = -1);
    int selectedSample() const { return m_selSample; }
    int selectedIndex() const { return m_selIndex; }
    void setTitle(const QString& text);
    QTextBrowser* browser() const { return m_view; }

    /// "“token”", with spaces and control characters made visible.
    static QString shown(const QString& tokenText);

signals:
    void tokenClicked(int sample, int index);
    /// An alternative of the chosen token was clicked: its rank among the alternatives.
    void alternativeChosen(int sample, int index, int alternative);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void fitList();
    /// The title's minimum height: what its text needs at its width.
    void fitTitle();
    /// Left/Right: chooses the token `by` places from the chosen one (across samples), as a click would.
    void step(int by);
    void showTokenTip(const QUrl& link);
    const UiToken* token(int sample, int index) const;

    const QVector<QVector<UiToken>>* m_samples = nullptr;
    QString m_prefix;
    QString m_hint;
    int m_selSample = -1, m_selIndex = -1;
    QTextBrowser* m_view;
    QListWidget* m_alts;
    QLabel* m_title;
};
