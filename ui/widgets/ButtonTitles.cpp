#include "ui/widgets/ButtonTitles.h"

#include <QAbstractButton>
#include <QEvent>
#include <QLayout>
#include <QPointer>
#include <QWidget>

namespace {
class ButtonTitleFitter : public QObject {
public:
    ButtonTitleFitter(QWidget* row, const QList<QPair<QAbstractButton*, QString>>& brief) : QObject(row), m_row(row) {
        for (const auto& [button, text] : brief)
            m_buttons.push_back({button, button->text(), text});
        row->installEventFilter(this);
        fit();
    }

protected:
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Resize || e->type() == QEvent::FontChange || e->type() == QEvent::Show)
            fit();
        return false;
    }

private:
    struct Button {
        QPointer<QAbstractButton> button;
        QString whole, brief;
    };
    void fit() {
        QLayout* layout = m_row->layout();
        if (!layout || !m_row->isVisible())  // a row not shown yet has no width of its own
            return;
        layout->invalidate();
        // The row's width with every title whole: its width now, each shortened title's difference added
        int need = layout->sizeHint().width();
        for (const auto& b : m_buttons)
            if (b.button)
                need += b.button->fontMetrics().horizontalAdvance(b.whole) -
                        b.button->fontMetrics().horizontalAdvance(b.button->text());
        const bool whole = need <= m_row->width();
        for (const auto& b : m_buttons)
            if (b.button)
                b.button->setText(whole ? b.whole : b.brief);
    }

    QWidget* m_row;
    QList<Button> m_buttons;
};
}  // namespace

void fitButtonTitles(QWidget* row, const QList<QPair<QAbstractButton*, QString>>& brief) {
    new ButtonTitleFitter(row, brief);
}
