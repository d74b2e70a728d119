#include "ui/widgets/EnlargeToggle.h"

#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>

EnlargeToggle::EnlargeToggle(QWidget* host, const QString& toolTip, const QString& escWhatsThis,
                             std::function<void(bool)> apply)
    : QObject(host),
      m_button(new QPushButton(tr("Enlarge"))),
      m_esc(new QShortcut(QKeySequence(Qt::Key_Escape), host)),
      m_apply(std::move(apply)) {
    m_button->setCheckable(true);
    m_button->setToolTip(toolTip);
    m_esc->setContext(Qt::WidgetWithChildrenShortcut);
    m_esc->setWhatsThis(escWhatsThis);
    m_esc->setEnabled(false);  // Esc is the panel's own while nothing is enlarged
    connect(m_button, &QPushButton::toggled, this, &EnlargeToggle::setEnlarged);
    connect(m_esc, &QShortcut::activated, this, [this] { setEnlarged(false); });
}

void EnlargeToggle::setEnlarged(bool on) {
    {
        const QSignalBlocker b(m_button);
        m_button->setChecked(on);
    }
    m_button->setText(on ? tr("Restore") : tr("Enlarge"));
    m_esc->setEnabled(on);
    m_apply(on);  // last: what it asks of enlarged() is already so
}

bool EnlargeToggle::enlarged() const {
    return m_button->isChecked();
}
