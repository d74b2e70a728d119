#include "ui/PlaceholderPanel.h"

#include <QLabel>
#include <QVBoxLayout>

PlaceholderPanel::PlaceholderPanel(const QString& title, const QString& description, QWidget* parent)
    : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    auto* t = new QLabel("<h2>" + title.toHtmlEscaped() + "</h2>");
    auto* d = new QLabel(description);
    d->setWordWrap(true);
    d->setTextFormat(Qt::RichText);
    d->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(t);
    v->addWidget(d);
    v->addStretch();
}
