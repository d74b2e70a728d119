#include "ui/widgets/ConfirmDelete.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QMessageBox>

bool confirmDelete(QWidget* parent, const QString& title, const QString& text, const QString& action) {
    QMessageBox box(QMessageBox::Warning, title,
                    text + "\n\n" + QCoreApplication::translate("ConfirmDelete", "This cannot be undone."),
                    QMessageBox::Yes | QMessageBox::Cancel, parent);
    box.setObjectName("confirmDelete");
    box.setDefaultButton(QMessageBox::Cancel);
    box.button(QMessageBox::Yes)->setText(action);
    return box.exec() == QMessageBox::Yes;
}
