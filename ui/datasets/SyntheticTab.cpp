#include "ui/datasets/SyntheticTab.h"

#include "twb/synthetic.h"
#include "twb/text.h"
#include "ui/Workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QSpinBox* spin(int lo, int hi, int value) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}
}  // namespace

SyntheticTab::SyntheticTab(QWidget* parent) : QWidget(parent) {
    m_task = new QComboBox;
    m_task->setObjectName("syntheticTask");
    // Each task by its name in the interface's language, the engine's name kept as its data (the Bokmål
    // list read "addition", "copy"…). Instructions: JSON records for the Chat data tab, the others text.
    static const QHash<QString, const char*> shown{{"addition", QT_TR_NOOP("addition")},
                                                   {"copy", QT_TR_NOOP("copy")},
                                                   {"reverse", QT_TR_NOOP("reverse")},
                                                   {"sort", QT_TR_NOOP("sort")},
                                                   {"instructions", QT_TR_NOOP("instructions")}};
    for (const auto& t : twb::synthetic_tasks())
        m_task->addItem(shown.contains(q(t)) ? tr(shown.value(q(t))) : q(t), q(t));
    m_examples = spin(1, 10000000, 20000);
    m_digits = spin(1, 18, 3);
    m_reversed = new QCheckBox(tr("write numbers least significant digit first"));
    m_reversed->setToolTip(tr("Lets a left-to-right model produce the carry before the digit that needs it"));
    m_minLen = spin(1, 200, 4);
    m_maxLen = spin(1, 200, 10);
    m_seed = spin(0, 2147483647, 1);
    auto* button = new QPushButton(tr("Generate and import"));
    // digits belong to addition, sequence lengths to copy/reverse/sort
    auto fields = [this] {
        const bool add = m_task->currentData().toString() == "addition";
        m_digits->setEnabled(add);
        m_reversed->setEnabled(add);
        m_minLen->setEnabled(!add);
        m_maxLen->setEnabled(!add);
    };
    connect(m_task, &QComboBox::currentIndexChanged, this, fields);
    fields();
    auto* form = new QFormLayout;
    form->addRow(tr("Task"), m_task);
    form->addRow(tr("Examples"), m_examples);
    form->addRow(tr("Digits (addition)"), m_digits);
    form->addRow(QString(), m_reversed);
    form->addRow(tr("Shortest sequence"), m_minLen);
    form->addRow(tr("Longest sequence"), m_maxLen);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(QString(), button);
    auto* help =
        new QLabel(tr("One example per line, e.g. addition <code>123+456=579</code>, reversed "
                      "<code>321+654=9750</code>; copy <code>cabd&gt;cabd</code>; reverse "
                      "<code>cabd&gt;dbac</code>; sort <code>cabd&gt;abcd</code>. Tokenize with "
                      "characters; the attention patterns of a model trained on them are easy to read. "
                      "Instructions are records for a chat finetune, <code>{\"instruction\": \"reverse: "
                      "cabd\", \"output\": \"dbac\"}</code>, handed to the Chat data tab."));
    help->setWordWrap(true);
    auto* col = new QVBoxLayout(this);
    col->addLayout(form);
    col->addWidget(help);
    col->addStretch(1);
    connect(button, &QPushButton::clicked, this, &SyntheticTab::generate);
}

QString SyntheticTab::generate() {
    twb::SyntheticSpec s;
    s.task = m_task->currentData().toString().toStdString();
    s.examples = m_examples->value();
    s.digits = m_digits->value();
    s.reversed_digits = m_reversed->isChecked();
    s.min_length = m_minLen->value();
    s.max_length = m_maxLen->value();
    s.seed = static_cast<uint64_t>(m_seed->value());
    try {
        const std::string text = twb::generate_synthetic(s);
        const QString name =
            QStringLiteral("%1%2-%3-seed%4")
                .arg(q(s.task))
                .arg(s.task == "addition" ? QStringLiteral("%1d%2").arg(s.digits).arg(s.reversed_digits ? "r" : "")
                                          : QString())
                .arg(s.examples)
                .arg(s.seed);
        const bool records = s.task == "instructions";
        const QString path = Workspace::root() + "/synthetic/" + name + (records ? ".jsonl" : ".txt");
        QDir().mkpath(QFileInfo(path).absolutePath());
        twb::write_file_atomic(path.toStdString(), text);
        if (records)
            emit instructionsGenerated(path, name, s.examples);
        else
            emit generated(path, name, s.examples);
        return path;
    } catch (const std::exception& e) {
        emit errorChanged(q(e.what()));
        return {};
    }
}
