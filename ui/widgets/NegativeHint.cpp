#include "ui/widgets/NegativeHint.h"

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolTip>

namespace {
/// The spin box a key event is for: the box itself, or the line edit inside it.
QAbstractSpinBox* spinBoxOf(QObject* o) {
    if (auto* s = qobject_cast<QAbstractSpinBox*>(o))
        return s;
    return o && qobject_cast<QLineEdit*>(o) ? qobject_cast<QAbstractSpinBox*>(o->parent()) : nullptr;
}

/// Whether a minus typed now would stand where the number's sign goes: at the start, or over a selection
/// that starts there (a spin box selects all of its text when it takes the focus).
bool atSign(const QAbstractSpinBox* s) {
    const auto* edit = s->findChild<QLineEdit*>(QString(), Qt::FindDirectChildrenOnly);
    if (!edit)
        return false;
    const int at = edit->hasSelectedText() ? edit->selectionStart() : edit->cursorPosition();
    return at == s->property("prefix").toString().size();
}
}  // namespace

QString NegativeHint::textFor(const QAbstractSpinBox* field) {
    const QLocale l = field->locale();
    if (auto* s = qobject_cast<const QSpinBox*>(field))
        return s->minimum() < 0 ? QString()
                                : tr("This field takes no negative numbers: %1 to %2.")
                                      .arg(l.toString(s->minimum()), l.toString(s->maximum()));
    if (auto* d = qobject_cast<const QDoubleSpinBox*>(field))
        return d->minimum() < 0 ? QString()
                                : tr("This field takes no negative numbers: %1 to %2.")
                                      .arg(l.toString(d->minimum(), 'g', 6), l.toString(d->maximum(), 'g', 6));
    return {};
}

bool NegativeHint::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->text() == QLatin1String("-")) {
            auto* field = spinBoxOf(watched);
            if (field && !field->isReadOnly() && atSign(field)) {
                const QString text = textFor(field);
                if (!text.isEmpty())
                    QToolTip::showText(field->mapToGlobal(QPoint(0, field->height())), text, field);
            }
        }
    }
    return QObject::eventFilter(watched, event);
}
