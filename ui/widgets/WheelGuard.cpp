#include "ui/widgets/WheelGuard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

WheelGuard* WheelGuard::guardOf(QWidget* root) {
    auto* g = root->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly);
    return g ? g : new WheelGuard(root);
}

void WheelGuard::protect(QWidget* root) {
    for (auto* w : root->findChildren<QAbstractSpinBox*>())
        protectWidget(root, w);
    for (auto* w : root->findChildren<QComboBox*>())
        protectWidget(root, w);
}

void WheelGuard::protectWidget(QWidget* root, QWidget* field) {
    field->setFocusPolicy(Qt::StrongFocus);  // not WheelFocus: the wheel must not take focus either
    field->removeEventFilter(guardOf(root));
    field->installEventFilter(guardOf(root));
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (w && !w->hasFocus()) {
            // Not handled here: QApplication passes an ignored wheel event on to the parents (the scroll area).
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}
