// transformer-workbench: the desktop app. Thin: application setup and the main window.
#include "twb/process.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QMessageBox>
#include <exception>

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("transformer-workbench");
    QApplication::setApplicationName("transformer-workbench");
    QApplication::setApplicationDisplayName("Transformer Workbench");
    QApplication::setDesktopFileName("transformer-workbench");
    try {
        MainWindow w;
        w.show();
        return QApplication::exec();
    } catch (const std::exception& e) {
        QMessageBox::critical(nullptr, "Transformer Workbench", QString("Unexpected error: %1").arg(e.what()));
        return 1;
    }
}
