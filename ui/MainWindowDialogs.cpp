// MainWindow, its dialogs: comparing runs, About with the runtime report, the keyboard shortcuts (read from
// the menus' and panels' actions, shortcuts and buttons themselves) and Getting started. Composition and wiring are in
// MainWindow.cpp.
#include "ui/MainWindow.h"
#include "ui/Workspace.h"
#include "ui/training/TrainingPanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>

void MainWindow::compareDialog() {
    QDialog dlg(this);
    dlg.setWindowTitle(tr("Compare runs"));
    auto* v = new QVBoxLayout(&dlg);
    auto* intro = new QLabel(
        tr("Overlay the validation loss of these runs or sweep cells on the open run's plot. Runs with different "
           "tokenizers are compared in bits per character."));
    intro->setWordWrap(true);
    v->addWidget(intro);
    auto* list = new QListWidget;
    list->setObjectName("compareRuns");
    auto add = [&](const QString& run, const QString& label) {
        if (run == m_training->currentRun())
            return;  // the open run is the plot's own
        auto* it = new QListWidgetItem(label);
        it->setData(Qt::UserRole, run);
        it->setToolTip(run);
        it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
        it->setCheckState(Qt::Unchecked);
        list->addItem(it);
    };
    for (const auto& r : Workspace::runs())
        add(r, Workspace::runLabel(r));
    // A sweep's cells too, under a heading: a cell could be compared with its sweep's other cells only, in the
    // Experiments panel, and never with a run of its own
    const QStringList cells = Workspace::sweepCells();
    if (!cells.isEmpty() && !(cells.size() == 1 && cells.first() == m_training->currentRun())) {
        auto* heading = new QListWidgetItem(tr("Sweep cells"));
        heading->setFlags(Qt::ItemIsEnabled);  // not checkable nor selectable; enabled, or it reads greyed out
        QFont bold = heading->font();
        bold.setBold(true);
        heading->setFont(bold);
        list->addItem(heading);
    }
    for (const auto& c : cells) {
        const QFileInfo cell(c);
        add(c, QStringLiteral("%1 / %2").arg(QFileInfo(cell.path()).fileName(), cell.fileName()));
    }
    v->addWidget(list);
    // wide enough for the runs' names ("name (run-20261129-063554)" was cut at 260 pixels)
    dlg.resize(std::clamp(list->sizeHintForColumn(0) + 60, 480, 900), 380);
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
    // The runtime report in a box of its own that wraps and scrolls: in a message box's <pre> its long lines
    // (the BLAS, CUDA, precision) ran off the dialog's edge at 150% text, with no way to read them.
    const QString report = m_doctorText.isEmpty() ? tr("(runtime check still running)") : m_doctorText;
    QDialog box(this);
    box.setWindowTitle(tr("About Transformer Workbench"));
    auto* icon = new QLabel;
    icon->setPixmap(windowIcon().pixmap(64));
    auto* title =
        new QLabel(tr("<h3>Transformer Workbench 0.1</h3><p>Train small transformer language models on "
                      "your own text, watch them learn, look inside.</p>"));
    title->setWordWrap(true);
    auto* head = new QHBoxLayout;
    head->addWidget(icon, 0, Qt::AlignTop);
    head->addWidget(title, 1);
    auto* text = new QPlainTextEdit(report);
    text->setObjectName("runtimeReport");
    text->setReadOnly(true);
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    fixed.setPointSizeF(font().pointSizeF());  // the platform's fixed font keeps its size at 150% text
    text->setFont(fixed);
    text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    // The report is what a bug report needs: one click puts it on the clipboard.
    QPushButton* copy = buttons->addButton(tr("Copy report"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, &box, &QDialog::reject);
    connect(copy, &QPushButton::clicked, &box, [this, report, &box] {
        QGuiApplication::clipboard()->setText(report);
        statusBar()->showMessage(tr("The runtime report is on the clipboard"), 4000);
        box.accept();
    });
    auto* v = new QVBoxLayout(&box);
    v->addLayout(head);
    // The engine writes the report in English, whatever the interface's language: it goes into bug reports.
    auto* caption = new QLabel(tr("The runtime report, for bug reports:"));
    caption->setWordWrap(true);
    v->addWidget(caption);
    v->addWidget(text, 1);
    v->addWidget(buttons);
    // As wide as the report's longest line where the screen has room, as high as its lines.
    const QFontMetrics fm(text->font());
    int widest = 0;
    for (const QString& line : report.split('\n'))
        widest = std::max(widest, fm.horizontalAdvance(line));
    const QRect room = screen()->availableGeometry();
    box.resize(std::min(widest + 80, room.width() * 9 / 10),
               std::min(fm.lineSpacing() * int(report.count('\n') + 2) + title->sizeHint().height() + 120,
                        room.height() * 85 / 100));
    box.exec();
}

QStringList MainWindow::shortcutRows(bool menus) const {
    // Gathered from the objects that bind the keys (the menus' actions; the panels' actions, QShortcuts
    // and buttons), so the list cannot drift from what the keys do. Menus, or else the panels in order.
    QStringList rows, seen;
    auto add = [&](const QKeySequence& k, const QString& where, QString what) {
        const QString key = k.toString(QKeySequence::NativeText);
        const QString row = QStringLiteral("<tr><td nowrap><b>%1</b></td><td>%2 → %3</td></tr>")
                                .arg(key.toHtmlEscaped(), where.toHtmlEscaped(), what.remove('&').toHtmlEscaped());
        if (!k.isEmpty() && !seen.contains(row))
            seen << row;
    };
    QList<QAction*> inMenus;
    for (QAction* top : menuBar()->actions())
        if (top->menu())
            for (QAction* a : top->menu()->actions()) {
                inMenus << a;
                if (menus)
                    add(a->shortcut(), top->text().remove('&'), a->text());
            }
    if (menus)
        return seen;
    for (int i = 0; i < m_stack->count(); ++i) {
        QWidget* panel = m_stack->widget(i);
        const QString name = m_nav->item(i)->text();
        for (QAction* a : panel->findChildren<QAction*>())
            if (!inMenus.contains(a))
                add(a->shortcut(), name, a->text());
        for (QShortcut* s : panel->findChildren<QShortcut*>())
            add(s->key(), name, s->whatsThis().isEmpty() ? tr("(a key of this panel)") : s->whatsThis());
        for (QAbstractButton* b : panel->findChildren<QAbstractButton*>())
            add(b->shortcut(), name, b->text().isEmpty() ? b->toolTip() : b->text());
    }
    for (QShortcut* s : findChildren<QShortcut*>())  // the window's own, outside the panels
        if (!m_stack->isAncestorOf(qobject_cast<QWidget*>(s->parent())))
            add(s->key(), tr("Window"), s->whatsThis());
    return seen;
}

void MainWindow::shortcutsHelp() {
    // Two columns, the menus' keys and the panels', each row on one line (a message box wrapped them over
    // three or four, 716 pixels high at 1280x720), in a dialog that scrolls where the screen is lower.
    QDialog box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QLabel(QStringLiteral("<table><tr><td valign=top><table cellspacing=4>%1</table></td>"
                                            "<td width=24></td><td valign=top><table cellspacing=4>%2</table></td>"
                                            "</tr></table>")
                                 .arg(shortcutRows(true).join(QString()), shortcutRows(false).join(QString())));
    table->setObjectName("shortcutsText");
    table->setTextFormat(Qt::RichText);
    table->setMargin(6);
    auto* scroll = new QScrollArea;
    scroll->setWidget(table);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* wheel =
        new QLabel(tr("In the forms, the mouse wheel changes a value only in the field that has the "
                      "keyboard focus (click it first); elsewhere it scrolls."));
    wheel->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, &box, &QDialog::reject);
    auto* v = new QVBoxLayout(&box);
    v->addWidget(scroll, 1);
    v->addWidget(wheel);
    v->addWidget(buttons);
    const QRect room = screen()->availableGeometry();
    const QSize natural = table->sizeHint();  // each row on one line
    const int width = std::min(natural.width() + 48, room.width() * 9 / 10);
    // Where the screen is narrower than the two columns (larger text at 1280x720) a row wraps its
    // description rather than the dialog scrolling sideways.
    table->setWordWrap(true);
    const int height = std::max(natural.height(), table->heightForWidth(width - 48));
    box.resize(width, std::min(height + 120, room.height() * 85 / 100));
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
           "Run → Find learning rate (Ctrl+L, or the Training panel's button) suggests a rate.</li>"
           "<li><b>Runs</b> (Alt+6) lists every run of the workspace with its results: give runs names and "
           "notes, open one, start a new run with its settings, compare several, delete old ones.</li>"
           "<li>Runs live in the workspace folder (File → Set workspace folder); File → Open run reopens one, "
           "and Start (F5) continues an interrupted run.</li></ol>"
           "<p>Help → Keyboard shortcuts (Ctrl+/) lists every key.</p>"));
    box.exec();
}
