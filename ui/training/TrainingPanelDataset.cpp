// TrainingPanel, which dataset it trains on: the list of prepared datasets, choosing one (the model
// kind follows a parallel or a token-stream dataset), and what keeps Start disabled.
#include "twb/dataset.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSettings>

#include <QSignalBlocker>
#include <QStandardItemModel>
#include <utility>

namespace {
/// The same folder, however it is spelled (symlinks, "..", a trailing slash).
bool sameFolder(const QString& a, const QString& b) {
    const QString ca = QFileInfo(a).canonicalFilePath(), cb = QFileInfo(b).canonicalFilePath();
    return !ca.isEmpty() ? ca == cb : QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}
/// The dataset folder a run was made on (empty when its config cannot be read).
QString runDataDir(const QString& run) {
    try {
        return QString::fromStdString(twb::read_run_config(run.toStdString()).data_dir);
    } catch (const std::exception&) {
        return {};
    }
}
/// The dataset's facts (vocab_size 0 when it cannot be read).
twb::PreparedDataset datasetFacts(const QString& dir) {
    try {
        return twb::open_prepared(dir.toStdString());
    } catch (const std::exception&) {
        return {};
    }
}
}  // namespace

void TrainingPanel::refreshDatasets() {
    const QString current = m_dataset->currentData().toString();
    QSignalBlocker block(m_dataset);
    m_dataset->clear();
    for (const auto& d : Workspace::datasets())
        m_dataset->addItem(QFileInfo(d).fileName(), d);
    const int i = m_dataset->findData(current);
    if (i >= 0)
        m_dataset->setCurrentIndex(i);
    block.unblock();
    onDatasetChanged();
}

bool TrainingPanel::chooseDatasetFolder(const QString& dir) {
    QString why;
    if (!QFileInfo(dir).isDir())
        why = tr("%1 is not a folder.").arg(dir);
    else if (!QFileInfo::exists(dir + "/meta.json"))
        why = tr("%1 is not a prepared dataset: it has no meta.json (nor the train.bin, val.bin and tokenizer "
                 "that go with it).")
                  .arg(dir);
    else
        try {
            twb::open_prepared(dir.toStdString());
        } catch (const std::exception& e) {
            why = tr("%1 cannot be used as a dataset: %2").arg(dir, QString::fromStdString(e.what()));
        }
    if (why.isEmpty()) {
        showError({});
        setDataset(dir);
        return true;
    }
    // Said beside the field, in full; the user stays here (the link goes to the Datasets panel).
    m_datasetError->setText(why.toHtmlEscaped() +
                            tr(" Prepare text files into a dataset in the <a href=\"datasets\">Datasets panel</a> "
                               "(Alt+1)."));
    m_datasetError->show();
    return false;
}

void TrainingPanel::setDataset(const QString& dir) {
    m_datasetError->hide();  // a folder refused before no longer applies (Quick start, a run opened)
    int i = m_dataset->findData(dir);
    if (i < 0) {
        m_dataset->addItem(QFileInfo(dir).fileName(), dir);
        i = m_dataset->count() - 1;
    }
    m_dataset->setCurrentIndex(i);
    onDatasetChanged();
}

void TrainingPanel::onDatasetChanged() {
    const QString data = m_dataset->currentData().toString();
    const twb::PreparedDataset facts = datasetFacts(data);
    m_form->setVocabSize(facts.vocab_size);
    m_dataParallel = facts.vocab_size > 0 ? int(facts.parallel) : -1;
    m_dataPairs.clear();
    if (facts.parallel) {
        const QString langs = facts.source_lang.empty() && facts.target_lang.empty()
                                  ? QString()
                                  : QStringLiteral("%1→%2, ").arg(QString::fromStdString(facts.source_lang),
                                                                  QString::fromStdString(facts.target_lang));
        m_dataPairs = tr("%1%2 training pairs").arg(langs, QLocale().toString(qulonglong(facts.train_pairs)));
    }
    // The model kind follows the dataset: pairs train an encoder-decoder, a token stream a decoder LM.
    // Said in a note, since fields appear or disappear with it.
    if (m_kindNote->property("dataset").toString() != data)
        m_kindNote->hide();  // the note speaks of one dataset (this is called again for the same one)
    const auto want = facts.parallel ? twb::ModelKind::EncoderDecoder : twb::ModelKind::Decoder;
    if (m_dataParallel >= 0 && !m_openingRun && m_form->modelKind() != want) {
        m_form->setModelKind(want);
        m_kindNote->setText(facts.parallel ? tr("Model kind set to <b>Encoder-decoder</b>: %1 is a parallel "
                                                "dataset (%2). The Multi30k and Tatoeba presets are starting "
                                                "points for it.")
                                                 .arg(QFileInfo(data).fileName().toHtmlEscaped(), m_dataPairs)
                                           : tr("Model kind set to <b>Decoder LM</b>: %1 is a token-stream "
                                                "dataset, not translation pairs.")
                                                 .arg(QFileInfo(data).fileName().toHtmlEscaped()));
        m_kindNote->setProperty("dataset", data);
        m_kindNote->setProperty("kind", int(want));
        m_kindNote->show();
    }
    // A chat dataset trains as documents, whatever the form said (the engine sets it; the form showed
    // "stream" for a run whose config.json says "documents"), a preset chosen later included.
    m_form->setDocumentsOnly(!facts.chat_template.empty());
    if (facts.chat_template.empty() && std::exchange(m_documentsForChat, false) && !m_openingRun &&
        m_form->config().sequences == twb::Sequences::Documents) {
        twb::RunConfig c = m_form->config();  // set for chat data before: back to a stream for this one
        c.sequences = twb::Sequences::Stream;
        m_form->setConfig(c);
    }
    if (!facts.chat_template.empty() && !m_openingRun && m_form->config().sequences != twb::Sequences::Documents) {
        twb::RunConfig c = m_form->config();
        c.sequences = twb::Sequences::Documents;
        m_form->setConfig(c);
        m_documentsForChat = true;
        m_kindNote->setText(tr("Sequences set to <b>documents</b>: %1 is chat data, one conversation a sequence, "
                               "its loss on the replies.")
                                .arg(QFileInfo(data).fileName().toHtmlEscaped()));
        m_kindNote->setProperty("dataset", data);
        m_kindNote->show();
    }
    // Bits per character is a language model's unit (val_bpc): translation runs have no such curve.
    auto* units = qobject_cast<QStandardItemModel*>(m_lossUnit->model());
    units->item(1)->setEnabled(m_dataParallel != 1);
    units->item(1)->setToolTip(m_dataParallel == 1 ? tr("Not for translation pairs: their loss is per target token")
                                                   : QString());
    if (m_dataParallel == 1 && m_lossUnit->currentIndex() == 1) {
        const QSignalBlocker b(m_lossUnit);  // the remembered choice stays for language models
        m_lossUnit->setCurrentIndex(0);
        m_plot->setBitsPerChar(false);
    } else if (m_dataParallel != 1 && m_lossUnit->currentIndex() == 0 &&
               QSettings().value("plotLossUnit").toInt() == 1) {
        m_lossUnit->setCurrentIndex(1);
    }
    updateBaselines();
    if (!m_openingRun && !m_runDir.isEmpty() && !data.isEmpty() && QFileInfo::exists(m_runDir + "/config.json") &&
        !sameFolder(runDataDir(m_runDir), data)) {
        // The open run's weights fit its own dataset only: Start makes a new run, keeping the form.
        const QString old = QFileInfo(m_runDir).fileName();
        clearRun();
        m_runLabel->setText(tr("<b>New run</b> on %1 (run %2 was trained on another dataset; it is kept)")
                                .arg(QFileInfo(data).fileName().toHtmlEscaped(), old.toHtmlEscaped()));
        showIdleStatus();
        emit statusMessage(tr("new run on %1: %2 stays as it is").arg(QFileInfo(data).fileName(), old));
        emit runChanged({});
    }
    updateStartEnabled();
}

QString TrainingPanel::startBlocker() const {
    if (isBusy())
        return tr("Training is already running");
    if (m_noDataOfItsOwn && !m_runDir.isEmpty())  // Start failed on the dataset left in the box, blaming it
        return tr(
            "An imported model has no dataset of its own to continue on: Run → Initialise from run… "
            "finetunes it on one; New run (Ctrl+N) starts another");
    if (const qint64 done = finishedAt(); done >= 0 && !m_moreRow->isHidden())
        return done < m_form->config().max_iters
                   ? tr("This run finished its epochs at step %1: Train more (below) continues it, or raise Epochs "
                        "and press Start; New run (Ctrl+N) starts another")
                         .arg(done)
                   : tr("This run finished at step %1: Train more (below) continues it, or raise Steps and press "
                        "Start; New run (Ctrl+N) starts another")
                         .arg(done);
    else if (done >= 0)  // the run itself goes further: Steps was lowered below where it stands
        return tr("Steps (%1) is not above step %2, where this run stands: raise it to continue the run; New run "
                  "(Ctrl+N) starts another")
            .arg(m_form->config().max_iters)
            .arg(done);
    if (m_noDataOfItsOwn && !m_runDir.isEmpty())  // Start failed on the dataset left in the box, blaming it
        return tr(
            "An imported model has no dataset of its own to continue on: Run → Initialise from run… "
            "finetunes it on one; New run (Ctrl+N) starts another");
    if (m_dataset->currentData().toString().isEmpty())
        return tr(
            "Choose a prepared dataset first: press Quick start (Ctrl+R), or prepare one in the Datasets "
            "panel");
    const QString name = QFileInfo(m_dataset->currentData().toString()).fileName();
    const bool ed = m_form->modelKind() == twb::ModelKind::EncoderDecoder;
    if (m_dataParallel == 1 && !ed)
        return tr("%1 is a parallel dataset (translation pairs): choose Model kind Encoder-decoder, or a "
                  "token-stream dataset for a decoder LM")
            .arg(name);
    if (m_dataParallel == 0 && ed)
        return tr("%1 is a token-stream dataset: an encoder-decoder trains on translation pairs; choose Model "
                  "kind Decoder LM, or a parallel dataset (Datasets panel, Translation pairs)")
            .arg(name);
    const QString p = m_form->problemSummary();
    return p;
}

qint64 TrainingPanel::finishedAt() const {
    // Trained to the form's last step: Start would train none (a larger max_iters continues the run).
    if (m_runDir.isEmpty())
        return -1;
    try {
        const auto steps = twb::list_checkpoints(m_runDir.toStdString());
        const twb::RunConfig c = m_form->config();
        // An encoder-decoder that has made its max_epochs passes is as finished (Train more adds steps).
        const bool epochsSpent = c.max_epochs > 0 && m_epochsRun == m_runDir && m_epochsDone >= c.max_epochs - 1e-9;
        if (!steps.empty() && (steps.back() >= c.max_iters || epochsSpent))
            return steps.back();
    } catch (const std::exception&) {
    }
    return -1;
}

void TrainingPanel::updateStartEnabled() {
    const QString why = startBlocker();
    m_start->setEnabled(why.isEmpty());
    const bool paused = isBusy() && m_control && m_control->paused();  // F5 continues a paused run
    m_startAct->setEnabled(why.isEmpty() || paused);
    m_start->setToolTip(why.isEmpty() ? tr("Start training (F5)") : why);
    // Said of the open run under the status line too, unless a field of the form already says it (or the form
    // is set aside for the enlarged plots: "Train more (below)" is not there).
    m_startWhy->setText(why + '.');
    m_startWhy->setVisible(!why.isEmpty() && !isBusy() && !m_runDir.isEmpty() && why != m_form->problemSummary() &&
                           !plotEnlarged());
    m_startAct->setToolTip(paused ? tr("Continue the paused training (F5 or F6)") : m_start->toolTip());
    if (m_runDir.isEmpty() && !isBusy())
        showNewRunStatus();
}
