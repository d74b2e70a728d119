// Start-up measurement for bench/startup.sh: with TWB_REPORT_FIRST_PAINT=1 in the environment, the first
// paint event of any widget of the main window prints "twb: first paint at N ms" (ms since the process
// was exec'd, dynamic loading included) to stderr; with TWB_REPORT_FIRST_PAINT=exit the app then quits.
#pragma once
#include "twb/process.h"

#include <QApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <cstdlib>
#include <cstring>

class FirstPaintReporter : public QObject {
public:
    /// Installs itself on the application when the variable asks for it; otherwise does nothing.
    explicit FirstPaintReporter(QWidget* window) : m_window(window) {
        const char* e = std::getenv("TWB_REPORT_FIRST_PAINT");
        if (!e || !*e || std::strcmp(e, "0") == 0)
            return;
        m_exit = std::strcmp(e, "exit") == 0;
        qApp->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && o->isWidgetType() && static_cast<QWidget*>(o)->window() == m_window) {
            std::fprintf(stderr, "twb: first paint at %.0f ms\n", twb::ms_since_process_start());
            qApp->removeEventFilter(this);
            if (m_exit)
                QTimer::singleShot(0, qApp, &QApplication::quit);
        }
        return false;
    }

private:
    QWidget* m_window;
    bool m_exit = false;
};
