#include "ui/widgets/TabTitles.h"

#include <QEvent>
#include <QTabBar>
#include <QTabWidget>

namespace {
class TabTitleFitter : public QObject {
public:
    TabTitleFitter(QTabWidget* tabs, const QStringList& brief) : QObject(tabs), m_tabs(tabs), m_brief(brief) {
        for (int i = 0; i < tabs->count(); ++i) {
            m_whole << tabs->tabText(i);
            if (tabs->tabToolTip(i).isEmpty())
                tabs->setTabToolTip(i, QString(tabs->tabText(i)).replace("&&", "&"));
        }
        tabs->installEventFilter(this);
        fit();
    }

protected:
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Resize || e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange ||
            e->type() == QEvent::Show)
            fit();
        return false;
    }

private:
    void fit() {
        QTabBar* bar = m_tabs->tabBar();
        const int n = std::min<int>(m_tabs->count(), static_cast<int>(m_whole.size()));
        for (int i = 0; i < n; ++i)
            if (bar->tabText(i) != m_whole[i])
                bar->setTabText(i, m_whole[i]);
        // The bar's size hint: every tab at its whole title (text, padding, icon and close button alike)
        const int need = bar->sizeHint().width();
        int room = m_tabs->width();
        for (Qt::Corner c : {Qt::TopLeftCorner, Qt::TopRightCorner})
            if (const QWidget* w = m_tabs->cornerWidget(c); w && w->isVisible())
                room -= w->width();
        if (need <= room - 4)
            return;
        for (int i = 0; i < n && i < m_brief.size(); ++i)
            if (!m_brief[i].isEmpty())
                bar->setTabText(i, m_brief[i]);
    }

    QTabWidget* m_tabs;
    QStringList m_whole, m_brief;
};
}  // namespace

void fitTabTitles(QTabWidget* tabs, const QStringList& brief) {
    new TabTitleFitter(tabs, brief);
}
