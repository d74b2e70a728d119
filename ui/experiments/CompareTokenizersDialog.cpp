#include "ui/experiments/CompareTokenizersDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

CompareTokenizersDialog::CompareTokenizersDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Compare tokenizers"));
    auto* f = new QFormLayout(this);
    auto* what = new QLabel(
        tr("The text is prepared once per tokenizer (kept in the workspace's datasets), then one model per "
           "dataset is trained with the Training panel's config. The results table's <b>bits/char</b> column "
           "ranks them fairly."));
    what->setWordWrap(true);
    f->addRow(what);
    auto* row = new QHBoxLayout;
    m_inputs = new QLineEdit(QSettings().value("compareTokenizers/inputs").toString());
    m_inputs->setObjectName("inputs");
    m_inputs->setPlaceholderText(tr("text files, separated by ';'"));
    auto* browse = new QPushButton(tr("Browse…"));
    row->addWidget(m_inputs, 1);
    row->addWidget(browse);
    f->addRow(tr("Text"), row);
    m_char = new QCheckBox(tr("characters"));
    m_char->setChecked(QSettings().value("compareTokenizers/char", true).toBool());
    f->addRow(tr("Char"), m_char);
    m_bpe = new QLineEdit(QSettings().value("compareTokenizers/bpe", "500, 2000").toString());
    m_bpe->setObjectName("bpeSizes");
    m_bpe->setToolTip(tr("BPE vocabulary sizes, comma-separated; empty for none"));
    f->addRow(tr("BPE sizes"), m_bpe);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    bb->button(QDialogButtonBox::Ok)->setText(tr("Prepare and sweep"));
    f->addRow(bb);
    connect(bb, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue("compareTokenizers/inputs", m_inputs->text());
        s.setValue("compareTokenizers/char", m_char->isChecked());
        s.setValue("compareTokenizers/bpe", m_bpe->text());
        accept();
    });
    connect(bb, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Text to compare tokenizers on"));
        if (!files.isEmpty())
            m_inputs->setText(files.join(';'));
    });
}

QStringList CompareTokenizersDialog::inputs() const {
    QStringList out;
    for (const auto& s : m_inputs->text().split(';', Qt::SkipEmptyParts))
        out << s.trimmed();
    return out;
}

std::vector<twb::TokenizerSpec> CompareTokenizersDialog::tokenizers() const {
    std::vector<twb::TokenizerSpec> out;
    if (m_char->isChecked())
        out.push_back({});
    for (const auto& s : m_bpe->text().split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = s.trimmed().toInt(&ok);
        if (!ok || n < 2)
            continue;
        twb::TokenizerSpec t;
        t.kind = twb::TokenizerKind::Bpe;
        t.vocab_size = n;
        out.push_back(t);
    }
    return out;
}
