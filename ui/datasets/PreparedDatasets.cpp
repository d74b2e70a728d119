#include "ui/datasets/PreparedDatasets.h"
#include "ui/widgets/ConfirmDelete.h"

#include "twb/dataset.h"
#include "ui/Workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

PreparedDatasets::PreparedDatasets(QWidget* parent) : QGroupBox(tr("Prepared datasets"), parent) {
    m_list = new QListWidget;
    m_list->setObjectName("prepared");
    m_info = new QLabel;
    m_info->setObjectName("preparedInfo");
    m_info->setWordWrap(true);
    auto* train = new QPushButton(tr("Train on it"));
    auto* del = new QPushButton(tr("Delete"));
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_list, 1);
    col->addWidget(m_info);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(train);
    buttons->addWidget(del);
    col->addLayout(buttons);
    setMaximumWidth(260);

    // Train on it and Delete act on the selected dataset: off without one (Delete did nothing, silently)
    train->setObjectName("trainOnIt");
    del->setObjectName("deleteDataset");
    train->setEnabled(false);
    del->setEnabled(false);
    connect(m_list, &QListWidget::currentItemChanged, this, [this, train, del](QListWidgetItem* it) {
        train->setEnabled(it);
        del->setEnabled(it);
        if (!it)
            return m_info->clear();
        showInfo(it->data(Qt::UserRole).toString());
    });
    connect(train, &QPushButton::clicked, this, [this] {
        if (auto* it = m_list->currentItem())
            emit useForTraining(it->data(Qt::UserRole).toString());
    });
    connect(del, &QPushButton::clicked, this, [this] {
        if (auto* it = m_list->currentItem())
            deletePrepared(it->data(Qt::UserRole).toString());
    });
    refresh();
}

void PreparedDatasets::showInfo(const QString& dir) {
    try {
        const auto d = twb::open_prepared(dir.toStdString());
        if (!d.chat_template.empty()) {
            m_info->setText(tr("<b>Chat</b> (instruction tuning), template %1<br>%2 tokenizer, vocabulary %3<br>%4 "
                               "replies to learn in train, %5 in val")
                                .arg(QString::fromStdString(d.chat_template).toHtmlEscaped(),
                                     QString::fromStdString(d.tokenizer_kind))
                                .arg(d.vocab_size)
                                .arg(d.train_loss_spans)
                                .arg(d.val_loss_spans));
            return;
        }
        if (d.parallel) {
            const QString langs = d.source_lang.empty() && d.target_lang.empty()
                                      ? tr("source → target")
                                      : QStringLiteral("%1 → %2").arg(QString::fromStdString(d.source_lang),
                                                                      QString::fromStdString(d.target_lang));
            m_info->setText(tr("<b>Parallel</b> (translation), %1<br>pairs: train %2, val %3, test %4<br>%5 "
                               "tokenizer, one vocabulary of %6")
                                .arg(langs.toHtmlEscaped())
                                .arg(d.train_pairs)
                                .arg(d.val_pairs)
                                .arg(d.test_pairs)
                                .arg(QString::fromStdString(d.tokenizer_kind))
                                .arg(d.vocab_size));
            return;
        }
        m_info->setText(
            // a fact a line, the unit kept whole: at 175% text the column wrapped them ragged ("tokens, val /
            // 111,540", "1.000 characters/ token")
            tr("%1 tokenizer<br>vocabulary %2<br>train %3,<br>val %4 tokens<br>%5 characters&nbsp;a&nbsp;token")
                .arg(QString::fromStdString(d.tokenizer_kind))
                .arg(d.vocab_size)
                .arg(QLocale().toString(static_cast<qulonglong>(d.train_tokens)),
                     QLocale().toString(static_cast<qulonglong>(d.val_tokens)))  // as the statistics write them
                .arg(QLocale().toString(d.chars_per_token, 'f', 3)));
    } catch (const std::exception& e) {
        m_info->setText(QString::fromStdString(e.what()));
    }
}

void PreparedDatasets::refresh() {
    m_list->clear();
    for (const QString& d : Workspace::datasets()) {
        // A parallel dataset says so in the list, with its languages: it trains an encoder-decoder.
        QString text = QFileInfo(d).fileName();
        try {
            const auto p = twb::open_prepared(d.toStdString());
            if (!p.chat_template.empty())
                text += tr(" (chat)");  // it trains a chat model: marked as pairs are
            else if (p.parallel)
                text += p.source_lang.empty()
                            ? tr(" (pairs)")
                            : QStringLiteral(" (%1→%2)")
                                  .arg(QString::fromStdString(p.source_lang), QString::fromStdString(p.target_lang));
        } catch (const std::exception&) {
        }
        auto* it = new QListWidgetItem(text);
        it->setData(Qt::UserRole, d);
        m_list->addItem(it);
    }
}

bool PreparedDatasets::deletePrepared(const QString& dir, bool confirm) {
    if (!QFileInfo::exists(dir + "/meta.json")) {
        emit errorChanged(tr("%1 is not a prepared dataset; nothing deleted.").arg(dir));
        return false;
    }
    if (confirm && !confirmDelete(this, tr("Delete dataset"),
                                  tr("Delete %1 and its token files? Runs trained on it keep their own tokenizer "
                                     "copy and still sample, but cannot continue training.")
                                      .arg(dir),
                                  tr("Delete")))
        return false;
    const bool ok = QDir(dir).removeRecursively();
    if (!ok)
        emit errorChanged(tr("Could not delete all of %1; check permissions.").arg(dir));
    refresh();
    return ok;
}
