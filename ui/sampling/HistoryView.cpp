#include "ui/sampling/HistoryView.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
}  // namespace

HistoryView::HistoryView(QWidget* parent) : QWidget(parent) {
    m_list = new QListWidget;
    m_list->setObjectName("history");
    m_text = new QPlainTextEdit;
    m_text->setObjectName("historyText");
    m_text->setReadOnly(true);
    setRecords({});
    auto* useHist = new QPushButton(tr("Use this prompt"));
    auto* exportOut = new QPushButton(tr("Export…"));
    useHist->setObjectName("historyUse");
    exportOut->setObjectName("historyExport");
    for (auto* b : {useHist, exportOut})  // they act on the entry chosen
        b->setEnabled(false);
    auto* row = new QHBoxLayout(this);
    row->addWidget(m_list, 2);  // wide enough for "time · step · T · prompt" at 1280x720
    auto* right = new QVBoxLayout;
    right->addWidget(m_text, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(useHist);
    buttons->addWidget(exportOut);
    buttons->addStretch(1);
    right->addLayout(buttons);
    row->addLayout(right, 3);

    connect(m_list, &QListWidget::currentItemChanged, this, [this, useHist, exportOut](QListWidgetItem* it) {
        useHist->setEnabled(it != nullptr);
        exportOut->setEnabled(it != nullptr);
        if (!it)
            return m_text->clear();
        const auto& e = m_records[static_cast<size_t>(it->data(Qt::UserRole).toInt())];
        QString text = q(e.prompt);
        for (size_t k = 0; k < e.outputs.size(); ++k)
            text += (e.outputs.size() > 1 ? tr("\n--- sample %1 ---\n").arg(k + 1) : QString()) + q(e.outputs[k]);
        m_text->setPlainText(text);
    });
    connect(useHist, &QPushButton::clicked, this, [this] {
        if (auto* it = m_list->currentItem())
            emit usePrompt(q(m_records[static_cast<size_t>(it->data(Qt::UserRole).toInt())].prompt));
    });
    connect(exportOut, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export text"), QString(), tr("Text (*.txt)"));
        if (f.isEmpty())
            return;
        QSaveFile out(f);
        if (!out.open(QIODevice::WriteOnly) || out.write(m_text->toPlainText().toUtf8()) < 0 || !out.commit())
            emit failed(tr("Cannot write %1").arg(f));
    });
}

void HistoryView::setRecords(const std::vector<twb::SampleRecord>& records) {
    m_records = records;
    m_list->clear();
    // Said in the empty page (a run with no generations showed two blank boxes)
    m_text->setPlaceholderText(records.empty()
                                   ? tr("No generations of this run yet: each one made with Generate (or twb "
                                        "sample) is kept here with its prompt and settings.")
                                   : tr("Choose a generation on the left to read it whole."));
    for (int i = static_cast<int>(records.size()) - 1; i >= 0; --i) {
        const auto& e = records[static_cast<size_t>(i)];
        // an empty prompt said, not a dangling "T=0.8 ·"
        const QString p = e.prompt.empty() ? tr("(no prompt)") : q(e.prompt).left(40).replace('\n', "↵");
        // Generations made elsewhere (`twb sample`) say where they came from.
        const QString source =
            e.source.empty() || e.source == "gui" ? QString() : QStringLiteral(" (%1)").arg(q(e.source));
        auto* item = new QListWidgetItem(tr("%1 · step %2 · T=%3%4 · %5")
                                             .arg(q(e.time).replace('T', ' '))
                                             .arg(e.checkpoint_step)
                                             .arg(QLocale().toString(e.options.temperature, 'g', 6))  // "0,8" in Bokmål
                                             .arg(source, p));
        item->setData(Qt::UserRole, i);
        item->setToolTip(item->text() + "\n\n" + q(e.prompt).left(300));  // the whole line where it is cut off
        m_list->addItem(item);
    }
}
