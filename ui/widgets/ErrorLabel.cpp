#include "ui/widgets/ErrorLabel.h"

ErrorLabel::ErrorLabel(QWidget* parent) : QLabel(parent) {
    setObjectName("error");
    setStyleSheet("color:#b00020");
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
}
