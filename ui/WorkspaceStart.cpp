#include "ui/WorkspaceStart.h"

#include "ui/Workspace.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

bool WorkspaceStart::settle() {
    const QString problem = Workspace::problemAtStart();
    if (problem.isEmpty())
        return true;
    const QString chosen = QSettings().value("workspace").toString();
    QMessageBox box(QMessageBox::Warning, QObject::tr("Workspace folder"), problem);
    box.setInformativeText(
        QObject::tr("Your runs and datasets live in the workspace folder. Nothing has been "
                    "created or changed yet."));
    QPushButton* create = nullptr;
    if (!QFileInfo::exists(chosen))
        create = box.addButton(QObject::tr("Create it"), QMessageBox::AcceptRole);
    QPushButton* other = box.addButton(QObject::tr("Choose another folder…"), QMessageBox::ActionRole);
    box.addButton(QObject::tr("Use the default folder"), QMessageBox::ActionRole);  // what is left below
    QPushButton* quit = box.addButton(QObject::tr("Quit"), QMessageBox::RejectRole);
    box.setDefaultButton(other);
    box.exec();
    if (box.clickedButton() == quit || !box.clickedButton())
        return false;
    if (box.clickedButton() == create) {
        if (!QDir().mkpath(chosen)) {
            QMessageBox::critical(nullptr, QObject::tr("Workspace folder"),
                                  QObject::tr("%1 cannot be created; the default folder is used.").arg(chosen));
            QSettings().remove("workspace");
        }
        return true;
    }
    if (box.clickedButton() == other) {
        const QString d = QFileDialog::getExistingDirectory(nullptr, QObject::tr("Workspace folder"), QDir::homePath());
        if (!d.isEmpty()) {
            Workspace::setRoot(d);
            return true;
        }
    }
    QSettings().remove("workspace");  // the default, in the user's data folder (also when the choice was cancelled)
    return true;
}
