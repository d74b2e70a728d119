// A dialog whose wrapped lines (an explanation, a status, an error) changed grows to the height they need
// at its present width: left at its old height, the layout squeezes the wrapped labels and cuts them
// mid-sentence. Activating the layout first drops the cached heights computed for the old texts.
#pragma once
#include <QDialog>
#include <QLayout>

inline void growToFit(QDialog* dialog) {
    dialog->layout()->activate();
    const int need =
        dialog->hasHeightForWidth() ? dialog->heightForWidth(dialog->width()) : dialog->sizeHint().height();
    if (need > dialog->height())
        dialog->resize(dialog->width(), need);
}
