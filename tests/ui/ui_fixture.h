// A tiny trained run for the panels' tests: a char dataset of English-like text and a one-layer
// model trained for 40 steps with a checkpoint every 10 (all kept), made through the engine API; and
// setting a config form's field by its key.
#pragma once
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/training.h"
#include "ui/Workspace.h"

#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

namespace twbtest {

/// Sets the spin box named `name` (a config form's field, by its key) under `w`.
inline void set_spin(const QWidget* w, const char* name, int v) {
    auto* s = w->findChild<QSpinBox*>(name);
    QVERIFY2(s, name);
    s->setValue(v);
}

/// Test-mode settings, cleared, and the workspace at dir: every UI test's start.
inline void use_test_workspace(const QTemporaryDir& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    Workspace::setRoot(dir.path());
}

/// Points the workspace at dir (use_test_workspace), prepares a dataset and trains a run in runs/NAME.
inline QString make_tiny_run(const QTemporaryDir& dir, const char* name = "tiny", int iters = 40,
                             const char* position = "rotary") {
    use_test_workspace(dir);
    const auto data = std::filesystem::path(Workspace::datasetsDir().toStdString()) / "small";
    if (!std::filesystem::exists(data)) {
        write(path(dir, "c.txt"), english_like(30000));
        twb::PrepareOptions o;
        o.corpus.inputs = {path(dir, "c.txt").string()};
        o.out = data;
        twb::prepare_dataset(o);
    }
    twb::RunConfig c = twb::preset_config("tiny");
    c.data_dir = data.string();
    c.n_layer = 2;
    c.n_embd = 32;
    c.n_head = 2;
    c.block_size = 32;
    c.batch_size = 8;
    c.max_iters = iters;
    c.lr_decay_iters = iters;
    c.warmup_iters = 2;
    c.eval_interval = 10;
    c.eval_iters = 2;
    c.keep_checkpoints = 100;
    c.threads = 1;
    c.dropout = 0;
    c.position = twb::parse_choice<twb::Position>(position, "position");
    twb::TrainJob job;
    job.config = c;
    job.run_dir = (Workspace::runsDir() + "/" + name).toStdString();
    twb::train(job);
    return QString::fromStdString(job.run_dir);
}

/// Menu entries that share a mnemonic within one menu of `bar` ("&Run: Save &checkpoint now and &Compare
/// runs…"): Alt+letter then only highlights the first.
inline QStringList mnemonic_clashes(const QMenuBar* bar) {
    QStringList out;
    for (auto* top : bar->actions()) {
        if (!top->menu())
            continue;
        QMap<QChar, QString> seen;
        for (auto* a : top->menu()->actions()) {
            const QString t = QString(a->text()).replace("&&", "");
            const int at = int(t.indexOf('&'));
            if (at < 0 || at + 1 >= t.size())
                continue;
            const QChar c = t[at + 1].toLower();
            if (seen.contains(c))
                out << top->text() + ": " + seen[c] + " and " + t;
            seen[c] = t;
        }
    }
    return out;
}

}  // namespace twbtest
