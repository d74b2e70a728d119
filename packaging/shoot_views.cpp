// Takes docs/screenshots/{lens,ablation,attribution}.png for packaging/make-screenshots.sh: the main window
// at its current size on the Attention panel's Logit lens and Head ablation pages and the Sampling console
// after a click on a generated token, each view driven through its public slots as a user's clicks would,
// then grabbed (QWidget::grab) once its job has finished. Needs a display (Xvfb).
// usage: twb-shoot-views RUN OUT_DIR
#include "ui/MainWindow.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/inspection/HeadAblationView.h"
#include "ui/inspection/LogitLensView.h"
#include "ui/sampling/AttributionStrip.h"
#include "ui/sampling/SamplingPanel.h"
#include "ui/sampling/TokenOutputView.h"
#include "ui/widgets/RunPicker.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTextBrowser>
#include <QThread>
#include <cstdio>
#include <functional>

namespace {
/// Runs the event loop until done() or 120 s; false on the timeout.
bool waitFor(const std::function<bool()>& done) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < 120000) {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(20);
    }
    for (int i = 0; i < 20; ++i)  // let the last paint land
        QApplication::processEvents();
    return done();
}

bool shoot(MainWindow& w, const QString& file) {
    const bool ok = w.grab().save(file, "PNG");
    std::printf("%s %s\n", ok ? "wrote" : "could not write", qPrintable(file));
    return ok;
}
}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("transformer-workbench");
    QApplication::setApplicationName("transformer-workbench");
    if (argc < 3) {
        std::fprintf(stderr, "usage: twb-shoot-views RUN OUT_DIR\n");
        return 2;
    }
    const QString run = argv[1], out = argv[2];
    MainWindow w;
    w.show();
    w.showPanel("Attention");
    AttentionPanel* a = w.attentionPanel();
    a->picker()->setRun(run);
    a->pages()->setCurrentWidget(a->lens());
    a->lens()->setPrompt("Q: What is the meaning of life?\nA:");
    a->lens()->show();
    if (!waitFor([&] { return !a->lens()->isBusy(); }) || !shoot(w, out + "/lens.png"))
        return 1;

    a->pages()->setCurrentWidget(a->ablation());
    a->ablation()->setHeads("0.*");
    a->ablation()->setPrompt("Q: ");
    a->ablation()->measureEveryHead();
    if (!waitFor([&] { return !a->ablation()->isBusy(); }))
        return 1;
    a->ablation()->compareText();
    if (!waitFor([&] { return !a->ablation()->isBusy(); }) || !shoot(w, out + "/ablation.png"))
        return 1;

    w.showPanel("Sampling");
    SamplingPanel* s = w.samplingPanel();
    s->picker()->setRun(run);
    s->setPrompt("Q: What is the meaning of life?\nA: ");
    s->setSeed(7);
    s->setMaxTokens(80);
    s->generate();
    if (!waitFor([&] { return !s->isBusy(); }) || s->output().samples.isEmpty())
        return 1;
    for (auto* v : s->findChildren<TokenOutputView*>())
        if (v->browser()->objectName() == "output")
            emit v->tokenClicked(0, std::min<int>(20, static_cast<int>(s->output().samples[0].size()) - 1));
    if (!waitFor([&] { return !s->attribution()->result().ids.empty(); }) || !shoot(w, out + "/attribution.png"))
        return 1;
    return 0;
}
