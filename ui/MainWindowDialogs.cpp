// MainWindow, its dialogs: comparing runs, About with the runtime report, the keyboard shortcuts (read from
// the menus themselves) and Getting started. Composition and wiring are in MainWindow.cpp.
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/training/TrainingPanel.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QVBoxLayout>

void MainWindow::compareDialog() {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Compare runs"));
    auto* v = new QVBoxLayout(&dlg);
    auto* intro = new QLabel(
        tr("Overlay the validation loss of these runs on the open run's plot. Runs with different tokenizers are "
           "compared in bits per character."));
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* list = new QListWidget;
    for (const auto& r : Workspace::runs()) {
        auto* it = new QListWidgetItem(Workspace::runLabel(r));
        it->setData(Qt::UserRole, r);
        it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
        it->setCheckState(Qt::Unchecked);
        list->addItem(it);
    }
    v->addWidget(list);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(bb, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(bb, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    v->addWidget(bb);
    if (dlg.exec() != QDialog::Accepted)
        return;
    QStringList chosen;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            chosen << list->item(i)->data(Qt::UserRole).toString();
    m_training->compareWith(chosen);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Transformer Workbench"),
        tr("<h3>Transformer Workbench 0.1</h3><p>Train small transformer language models on your own "
           "text, watch them learn, look inside.</p><pre>%1</pre>")
            .arg((m_doctorText.isEmpty() ? tr("(runtime check still running)") : m_doctorText).toHtmlEscaped()));
}

void MainWindow::shortcutsHelp() {
    // Listed from the menus themselves, so the table cannot drift from what the keys do.
    QString rows;
    for (QAction* top : menuBar()->actions()) {
        if (!top->menu())
            continue;
        for (QAction* a : top->menu()->actions())
            if (!a->shortcut().isEmpty())
                rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2 → %3</td></tr>")
                            .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                                 top->text().remove('&'), a->text().remove('&').toHtmlEscaped());
    }
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<table cellspacing=6>%1</table><p>In the forms, the mouse wheel changes a value only in the "
                   "field that has the keyboard focus (click it first); elsewhere it scrolls.</p>")
                    .arg(rows));
    box.exec();
}

void MainWindow::gettingStarted() {
    QMessageBox box(this);
    box.setWindowTitle(tr("Getting started"));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<h3>Getting started</h3><ol>"
           "<li><b>Quick start</b> (Ctrl+R, Training panel) prepares Debian's fortune cookies and trains a tiny "
           "model in about a minute: watch the loss fall.</li>"
           "<li><b>Sampling</b> (Alt+4): type a prompt and generate text from the run's best checkpoint.</li>"
           "<li><b>Attention</b> (Alt+3): see what each head looks at, token by token.</li>"
           "<li><b>Your own text</b>: Datasets (Alt+1) → add text files, choose cleaning and a tokenizer, "
           "Prepare, then <i>Train on it</i>. A dataset that does not match the open run starts a new run.</li>"
           "<li><b>Experiments</b> (Alt+5): sweep config fields over a grid and compare the cells in one table; "
           "Training → Find learning rate (Ctrl+L) suggests a rate.</li>"
           "<li><b>Runs</b> (Alt+6) lists every run of the workspace with its results: give runs names and "
           "notes, open one, start a new run with its settings, compare several, delete old ones.</li>"
           "<li>Runs live in the workspace folder (File → Set workspace folder); File → Open run reopens one, "
           "and Start (F5) continues an interrupted run.</li></ol>"
           "<p>Help → Keyboard shortcuts (Ctrl+/) lists every key.</p>"));
    box.exec();
}
