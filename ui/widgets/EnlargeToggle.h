// A view given the whole panel and given back: a checkable Enlarge / Restore button, and Esc while enlarged
// (in the host panel only). What is set aside is the caller's: apply(on) hides or shows it. The Attention
// panel's map and the Training panel's plots use it (at 1280x720 with 175% text, on a projector, each was a
// strip beside the rest).
#pragma once
#include <QObject>
#include <QString>
#include <functional>

class QPushButton;
class QShortcut;
class QWidget;

class EnlargeToggle : public QObject {
    Q_OBJECT
public:
    /// host: the panel (its Esc returns); toolTip: the button's; apply(on): sets the rest aside or back.
    EnlargeToggle(QWidget* host, const QString& toolTip, const QString& escWhatsThis, std::function<void(bool)> apply);
    QPushButton* button() const { return m_button; }
    void setEnlarged(bool on);
    bool enlarged() const;
    void toggle() { setEnlarged(!enlarged()); }

private:
    QPushButton* m_button;
    QShortcut* m_esc;
    std::function<void(bool)> m_apply;
};
