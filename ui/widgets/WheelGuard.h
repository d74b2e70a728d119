// Keeps the mouse wheel from editing values while the user scrolls past them: a spin box or combo box
// takes the wheel only when it has the keyboard focus; otherwise the wheel goes on to the scroll area
// around it. It changes nothing else about the widgets (clicks and keys work as before).
#pragma once
#include <QObject>

class QWidget;

class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Guards every spin box and combo box under root (present now), with one guard owned by root.
    static void protect(QWidget* root);
    /// Guards one widget (for fields made later), sharing root's guard.
    static void protectWidget(QWidget* root, QWidget* field);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
    static WheelGuard* guardOf(QWidget* root);
};
