#include "ui/widgets/TabWalk.h"

#include <QAbstractItemView>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QWidget>

void TabWalk::apply(QWidget* root) {
    for (auto* e : root->findChildren<QPlainTextEdit*>())
        e->setTabChangesFocus(true);
    for (auto* e : root->findChildren<QTextEdit*>())
        e->setTabChangesFocus(true);  // a QTextBrowser still stops at its links first, as a reader expects
    for (auto* v : root->findChildren<QAbstractItemView*>())
        v->setTabKeyNavigation(false);  // the arrows still move between cells
}

bool TabWalk::canStop(const QWidget* w) {
    return (w->focusPolicy() & Qt::TabFocus) && w->isEnabled() && w->isVisibleTo(w->window());
}

QWidget* TabWalk::stop(QWidget* from, bool forward, const std::function<bool(const QWidget*)>& wanted) {
    auto next = [forward](QWidget* w) { return forward ? w->nextInFocusChain() : w->previousInFocusChain(); };
    for (QWidget* w = next(from); w && w != from; w = next(w))
        if (canStop(w) && wanted(w))
            return w;
    return nullptr;
}
