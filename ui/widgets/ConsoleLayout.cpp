#include "ui/widgets/ConsoleLayout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace console_layout {

QPushButton* button(const QString& text, const char* name, const QString& tip, bool enabled) {
    auto* b = new QPushButton(text);
    if (name)
        b->setObjectName(name);
    b->setToolTip(tip);
    b->setEnabled(enabled);
    return b;
}

QWidget* outputWithAlternatives(QWidget* view, QLabel* title, QListWidget* alternatives) {
    auto* altBox = new QWidget;
    auto* altCol = new QVBoxLayout(altBox);
    altCol->setContentsMargins(0, 0, 0, 0);
    altCol->addWidget(title);
    altCol->addWidget(alternatives, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(view);
    split->addWidget(altBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    return split;
}

QHBoxLayout* buttonRow(std::initializer_list<QWidget*> buttons, QWidget* status) {
    auto* row = new QHBoxLayout;
    for (auto* b : buttons)
        row->addWidget(b);
    // The status takes the rest of the row, its text at the right: behind a stretch, a word-wrapped label
    // got a guessed narrow width and broke "300 tokens · 10,676.7 tok/s · step 150" over three lines.
    row->addWidget(status, 1);
    if (auto* label = qobject_cast<QLabel*>(status)) {
        label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        // Longer than its room (the translation console in Bokmål), it wraps between its parts (statusLine);
        // on one line its start was cut off under the buttons (":okener, kuttet ved lengdegrensen · …").
        label->setWordWrap(true);
    }
    return row;
}

QWidget* tab(QWidget* input, QWidget* output, QHBoxLayout* buttons, QWidget* error, int outputStretch) {
    auto* tab = new QWidget;
    auto* col = new QVBoxLayout(tab);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(input);
    split->addWidget(output);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, outputStretch);
    // The error between the texts and the buttons: shown, it takes its room from the texts, and the
    // buttons stay where they were (under them, they moved up by its height)
    col->addWidget(split, 1);
    col->addWidget(error);
    col->addLayout(buttons);
    return tab;
}

}  // namespace console_layout
