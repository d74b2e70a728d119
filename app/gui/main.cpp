// transformer-workbench [RUN] [--panel NAME]: the desktop app. Thin: application setup, the command
// line (a run folder to open, the panel to show first), the interface's language and the main window.
#include "app/gui/FirstPaintReporter.h"
#include "twb/process.h"
#include "ui/Language.h"
#include "ui/MainWindow.h"
#include "ui/WorkspaceStart.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/TextScale.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    twb::ensure_openmp_wait_policy(argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("transformer-workbench");
    QApplication::setApplicationName("transformer-workbench");
    QApplication::setApplicationDisplayName("Transformer Workbench");
    QApplication::setDesktopFileName("transformer-workbench");
    Language::installSaved(&app);          // View → Language's choice, else the system locale's
    TextScale::apply(TextScale::saved());  // View → Larger / Smaller text's choice, before any widget
    QCommandLineParser args;
    args.setApplicationDescription(
        "Train small transformer language models on your own text, watch them learn, look "
        "inside.");
    args.addHelpOption();
    args.addPositionalArgument("run", "A run folder to open in the Training panel (optional).", "[RUN]");
    QCommandLineOption panel(
        "panel", "Show this panel first: Datasets, Training, Attention, Sampling, Experiments or Runs.", "name");
    args.addOption(panel);
    args.process(app);
    if (!WorkspaceStart::settle())  // a chosen workspace that is gone or a file: asked before anything creates it
        return 0;
    try {
        MainWindow w;
        FirstPaintReporter firstPaint(&w);  // TWB_REPORT_FIRST_PAINT=1|exit (bench/startup.sh)
        w.show();
        // A run that cannot be opened is said in the Training panel: shown first, whatever --panel asks (Sampling
        // opened quietly on another run, the error out of sight)
        const bool runRefused =
            !args.positionalArguments().isEmpty() && !w.trainingPanel()->openRun(args.positionalArguments().first());
        if (!args.positionalArguments().isEmpty())
            w.showPanel("Training");
        if (args.isSet(panel) && !runRefused && !w.showPanel(args.value(panel)))
            std::fprintf(stderr,
                         "transformer-workbench: no panel \"%s\" (--panel takes Datasets, Training, Attention, "
                         "Sampling, Experiments or Runs)\n",
                         qPrintable(args.value(panel)));
        return QApplication::exec();
    } catch (const std::exception& e) {
        QMessageBox::critical(nullptr, "Transformer Workbench",
                              QApplication::translate("main", "Unexpected error: %1").arg(e.what()));
        return 1;
    }
}
