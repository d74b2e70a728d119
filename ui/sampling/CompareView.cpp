#include "ui/sampling/CompareView.h"
#include "ui/widgets/ElidingComboBox.h"
#include "ui/widgets/ErrorLabel.h"

#include "twb/run_folder.h"
#include "ui/Workspace.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace {
QString md_cell(QString s) {
    return s.replace('|', "\\|").replace('\n', "<br>").trimmed();
}
}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    m_ckList = new QListWidget;
    m_ckList->setObjectName("compareCheckpoints");
    m_ckList->setToolTip(tr("Columns: tick checkpoints of this run, or the best checkpoint of other runs"));
    m_temps = new QLineEdit(QSettings().value("sampling/compareTemps", temperaturesText({0.5, 1.0})).toString());
    m_temps->setObjectName("compareTemps");
    m_temps->setToolTip(tr("One row per temperature, separated by commas or spaces (0 = greedy)"));
    m_judge = new ElidingComboBox;  // a run's label is longer than the column: its start and end kept
    m_judge->setObjectName("compareJudge");
    m_judge->setHelp(
        tr("Score every generated text by another run: its perplexity under that run's best checkpoint, the prompt as "
           "context (lower = the judge finds the text more likely)"));
    m_compareBtn = new QPushButton(tr("Compare"));
    m_compareBtn->setObjectName("compare");
    auto* exportMd = new QPushButton(tr("Export Markdown…"));
    m_table = new QTableWidget;
    m_table->setObjectName("compareTable");
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setTextElideMode(Qt::ElideMiddle);  // keeps the run and the step in view
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // A row's temperature at its top: centred in a row taller than the view, it was scrolled out of sight
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignTop | Qt::AlignHCenter);
    auto* row = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    // The tab has no prompt of its own: say whose it takes (it took the Generate tab's without a word)
    auto* whose = new QLabel(tr("Every cell continues the Generate tab's prompt."));
    whose->setObjectName("comparePromptNote");
    whose->setWordWrap(true);
    left->addWidget(whose);
    left->addWidget(new QLabel(tr("Columns")));
    left->addWidget(m_ckList, 1);
    left->addWidget(new QLabel(tr("Temperatures")));
    left->addWidget(m_temps);
    left->addWidget(new QLabel(tr("Judge")));
    left->addWidget(m_judge);
    left->addWidget(m_compareBtn);
    m_problem = new ErrorLabel;
    m_problem->setObjectName("compareProblem");
    m_problem->hide();
    left->addWidget(m_problem);
    left->addWidget(exportMd);
    // The controls in a column ~28 characters wide (the list's own size hint made it 255 px at 1280x720,
    // the texts' columns 140 px each); an entry too long for it keeps its run and its step.
    auto* side = m_side = new QWidget;
    side->setObjectName("compareControls");
    side->setLayout(left);
    left->setContentsMargins(0, 0, 0, 0);
    side->setMaximumWidth(28 * fontMetrics().averageCharWidth() + 20);
    m_ckList->setTextElideMode(Qt::ElideMiddle);
    m_fold = new QToolButton;
    m_fold->setObjectName("compareFold");
    m_fold->setAutoRaise(true);
    m_fold->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto* texts = new QVBoxLayout;
    texts->setContentsMargins(0, 0, 0, 0);
    texts->addWidget(m_fold, 0, Qt::AlignLeft);
    texts->addWidget(m_table, 1);
    row->addWidget(side);
    row->addLayout(texts, 1);
    setControlsShown(true);
    connect(m_fold, &QToolButton::clicked, this, [this] { setControlsShown(!controlsShown()); });
    fillJudges(languageModelRuns());
    connect(m_compareBtn, &QPushButton::clicked, this, &CompareView::compareClicked);
    connect(exportMd, &QPushButton::clicked, this, &CompareView::exportClicked);
}

CompareView::~CompareView() {
    QSettings().setValue("sampling/compareTemps", m_temps->text());
    QSettings().setValue("sampling/compareJudge", judgeRun());
}

void CompareView::setProblem(const QString& text) {
    m_problem->setText(text);
    m_problem->setVisible(!text.isEmpty());
}

QString CompareView::problem() const {
    return m_problem->text();
}

QString CompareView::judgeRun() const {
    return m_judge->currentData().toString();
}

void CompareView::setJudgeRun(const QString& run) {
    int i = m_judge->findData(run);
    if (i < 0 && !run.isEmpty() && QFileInfo(run).isDir()) {  // a remembered judge deleted since: none
        m_judge->addItem(QFileInfo(run).fileName(), run);
        i = m_judge->count() - 1;
    }
    m_judge->setCurrentIndex(std::max(0, i));
}

QStringList CompareView::languageModelRuns() {
    // A translation run continues no prompt and scores no text: offered as a column or a judge it only
    // blanked its cells.
    QStringList out;
    for (const QString& r : Workspace::runs()) {
        try {
            if (twb::read_run_config(r.toStdString()).model_kind == twb::ModelKind::EncoderDecoder)
                continue;
        } catch (const std::exception&) {  // unreadable: offered, and its cells say what is wrong
        }
        out << r;
    }
    return out;
}

void CompareView::fillJudges(const QStringList& runs) {
    const QString keep = m_judge->count() ? judgeRun() : QSettings().value("sampling/compareJudge").toString();
    m_judge->clear();
    m_judge->addItem(tr("(none)"), QString());
    for (const QString& r : runs)
        m_judge->addItem(Workspace::runLabel(r), r);
    setJudgeRun(keep);
}

void CompareView::fillChoices(const QString& run, const QList<qint64>& steps) {
    QHash<QString, Qt::CheckState> before;
    for (int i = 0; i < m_ckList->count(); ++i) {
        const auto* it = m_ckList->item(i);
        before[it->data(Qt::UserRole).toString() + '|' + it->data(Qt::UserRole + 1).toString()] = it->checkState();
    }
    const bool sameRun = run == m_run;
    if (!sameRun) {  // the table compared the last run's checkpoints
        m_run = run;
        m_table->clear();
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        m_tableJudge.clear();
    }
    m_ckList->clear();
    const QStringList models = languageModelRuns();  // each run's config.json read once
    fillJudges(models);
    if (run.isEmpty())
        return;
    auto state = [&](const QString& r, const QString& which, Qt::CheckState fallback) {
        return sameRun ? before.value(r + '|' + which, fallback) : fallback;
    };
    for (int i = 0; i < steps.size(); ++i) {
        auto* it = new QListWidgetItem(tr("step %1").arg(steps[i]));
        it->setData(Qt::UserRole, run);
        it->setData(Qt::UserRole + 1, QString::number(steps[i]));
        // the last four by default
        it->setCheckState(state(run, QString::number(steps[i]), i >= steps.size() - 4 ? Qt::Checked : Qt::Unchecked));
        m_ckList->addItem(it);
    }
    for (const QString& other : models) {
        if (other == run)
            continue;
        auto* it = new QListWidgetItem(tr("%1 · best").arg(QFileInfo(other).fileName()));
        it->setData(Qt::UserRole, other);
        it->setData(Qt::UserRole + 1, QStringLiteral("best"));
        it->setCheckState(state(other, QStringLiteral("best"), Qt::Unchecked));
        m_ckList->addItem(it);
    }
}

void CompareView::setChoices(const QString& run, const QList<qint64>& steps, const QVector<double>& temperatures) {
    for (int i = 0; i < m_ckList->count(); ++i) {
        auto* it = m_ckList->item(i);
        const bool mine = it->data(Qt::UserRole).toString() == run;
        it->setCheckState(mine && steps.contains(it->data(Qt::UserRole + 1).toLongLong()) ? Qt::Checked
                                                                                          : Qt::Unchecked);
    }
    m_temps->setText(temperaturesText(temperatures));
}

QVector<double> CompareView::parseTemperatures(const QString& text, QString* bad) {
    // "0,5, 1,0" in Bokmål was cut at every comma into 0, 5, 1 and 0, and compared without a word.
    const bool decimalComma = QLocale().decimalPoint() == QLatin1String(",");
    static const QRegularExpression anySeparator("[;,\\s]+"), notADecimalComma("[;\\s]+|,(?=\\s)|,$|^,");
    QVector<double> out;
    for (QString part : text.split(decimalComma ? notADecimalComma : anySeparator, Qt::SkipEmptyParts)) {
        part = part.trimmed();
        if (part.isEmpty() || part == ",")
            continue;
        bool ok = false;
        double t = QLocale().toDouble(part, &ok);
        if (!ok)
            t = QLocale::c().toDouble(part, &ok);
        if (!ok || !(t >= 0 && t <= 5)) {
            *bad = part;
            return {};
        }
        out.append(t);
    }
    return out;
}

QString CompareView::temperaturesText(const QVector<double>& temperatures) {
    QStringList t;
    for (double v : temperatures)
        t << QLocale().toString(v, 'g', 6);
    return t.join(QLocale().decimalPoint() == QLatin1String(",") ? "; " : ", ");
}

QString CompareView::selection(QVector<QPair<QString, QString>>& columns, QVector<double>& temperatures) const {
    for (int i = 0; i < m_ckList->count(); ++i) {
        auto* it = m_ckList->item(i);
        if (it->checkState() == Qt::Checked)
            columns.append({it->data(Qt::UserRole).toString(), it->data(Qt::UserRole + 1).toString()});
    }
    QString bad;
    temperatures = parseTemperatures(m_temps->text(), &bad);
    if (!bad.isEmpty())
        return tr("Temperatures: '%1' is not a number between 0 and 5; write e.g. %2")
            .arg(bad, temperaturesText({0, 0.8, 1.2}));
    if (columns.isEmpty())
        return tr("Tick at least one checkpoint (or run) to compare.");
    if (temperatures.isEmpty())
        return tr("Give at least one temperature, e.g. 0.8.");
    return {};
}

void CompareView::begin(int columns, const QVector<double>& temperatures) {
    m_table->clear();
    m_table->setColumnCount(columns);
    m_table->setRowCount(static_cast<int>(temperatures.size()));
    QStringList rows;
    for (double t : temperatures)
        rows << (t == 0 ? tr("greedy") : tr("T = %1").arg(QLocale().toString(t, 'g', 6)));
    m_table->setVerticalHeaderLabels(rows);
    m_tableJudge = judgeRun();
    // The texts' columns at least ~20 characters wide where folding the controls gives them that
    const int room = width() - (controlsShown() ? m_side->width() + layout()->spacing() : 0);
    if (columns > 0 && room / columns < 20 * fontMetrics().averageCharWidth())
        setControlsShown(false);
}

void CompareView::setControlsShown(bool shown) {
    m_side->setVisible(shown);
    m_fold->setArrowType(shown ? Qt::LeftArrow : Qt::RightArrow);
    m_fold->setText(shown ? tr("Hide settings") : tr("Settings"));
    m_fold->setToolTip(shown ? tr("Fold the columns, temperatures and judge away: the texts take the width")
                             : tr("Show the columns, temperatures and judge (to compare again)"));
}

bool CompareView::controlsShown() const {
    return !m_side->isHidden();
}

void CompareView::setCell(int row, int column, const QString& header, const QString& text) {
    auto* h = new QTableWidgetItem(header);
    h->setToolTip(header);  // a narrow column elides its header; the whole of it is here
    m_table->setHorizontalHeaderItem(column, h);
    auto* cell = new QTableWidgetItem(text);
    cell->setData(TextRole, text);
    cell->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);  // texts of different lengths start level
    if (!m_tableJudge.isEmpty())
        cell->setText(text + "\n\n" + tr("— judge: scoring…"));
    m_table->setItem(row, column, cell);
}

void CompareView::setJudged(int row, int column, double perplexity, const QString& precision, const QString& problem) {
    auto* cell = m_table->item(row, column);
    if (!cell)
        return;
    const QString text = cell->data(TextRole).toString();
    if (std::isfinite(perplexity)) {
        cell->setData(JudgeRole, perplexity);
        cell->setText(text + "\n\n" +
                      tr("— judge perplexity: %1 (%2)")
                          .arg(QLocale().toString(perplexity, 'f', 2))
                          .arg(QFileInfo(m_tableJudge).fileName()));
        cell->setToolTip(tr("Perplexity of this text under %1's best checkpoint, the prompt as context, scored in %2")
                             .arg(m_tableJudge, precision));
    } else {
        cell->setText(text + "\n\n" + tr("— the judge cannot score this text: %1").arg(problem));
        cell->setToolTip(problem);
    }
}

void CompareView::setBusy(bool busy) {
    m_compareBtn->setEnabled(!busy);
}

bool CompareView::hasResults() const {
    return m_table->columnCount() > 0 && m_table->rowCount() > 0;
}

QString CompareView::markdown(const QString& prompt) const {
    QString md = tr("Prompt: `%1`\n\n").arg(QString(prompt).replace('\n', "\\n"));
    if (!m_tableJudge.isEmpty())
        md += tr("Judge: each text's perplexity under `%1` (best checkpoint), the prompt as context.\n\n")
                  .arg(QFileInfo(m_tableJudge).fileName());
    md += "| |";
    for (int c = 0; c < m_table->columnCount(); ++c)
        md += " " + md_cell(m_table->horizontalHeaderItem(c) ? m_table->horizontalHeaderItem(c)->text() : QString()) +
              " |";
    md += "\n|---|";
    for (int c = 0; c < m_table->columnCount(); ++c)
        md += "---|";
    md += "\n";
    for (int r = 0; r < m_table->rowCount(); ++r) {
        md +=
            "| " + md_cell(m_table->verticalHeaderItem(r) ? m_table->verticalHeaderItem(r)->text() : QString()) + " |";
        for (int c = 0; c < m_table->columnCount(); ++c)
            md += " " + md_cell(m_table->item(r, c) ? m_table->item(r, c)->text() : QString()) + " |";
        md += "\n";
    }
    return md;
}
