#include "ui/embeddings/EmbeddingsPanel.h"

#include "twb/text.h"
#include "twb/translation.h"
#include "ui/embeddings/EmbeddingMapPlot.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TokenDisplay.h"
#include "ui/workers/ModelThread.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
QString idList(const std::vector<int32_t>& ids) {
    QStringList l;
    for (int32_t id : ids)
        l << QString::number(id);
    return l.join(' ');
}
}  // namespace

EmbeddingsPanel::EmbeddingsPanel(ModelThread* model, QWidget* parent) : PanelBase(nullptr, parent) {
    if (!model) {
        m_ownModel = std::make_unique<ModelThread>();
        model = m_ownModel.get();
    }
    m_model = model;
    createControls();
    layOut();
    connectWorker(m_model->worker());
    connectControls();
}

void EmbeddingsPanel::createControls() {
    QSettings st;
    m_picker = new RunPicker;

    // Nearest tokens
    m_word = new QLineEdit(st.value("embeddings/word", "the").toString());
    m_word->setObjectName("embeddingWord");
    m_word->setPlaceholderText(tr("A word or token (several tokens: their mean)"));
    m_word->setToolTip(tr("Return finds its nearest tokens"));
    m_k = new QSpinBox;
    m_k->setRange(1, 500);
    m_k->setValue(st.value("embeddings/k", 10).toInt());
    m_k->setPrefix(tr("k = "));
    m_k->setToolTip(tr("How many neighbours to list"));
    m_find = new QPushButton(tr("Nearest"));
    m_find->setObjectName("findNeighbours");
    m_find->setToolTip(tr("Tokens whose embedding is closest by cosine similarity (Return)"));
    m_table = new QTableWidget(0, 3);
    m_table->setObjectName("neighbourTable");
    m_table->setHorizontalHeaderLabels({tr("token"), tr("id"), tr("cosine similarity")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // The figures' columns as wide as their titles, at any text size ("sine similar" at 150%).
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setVisible(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setToolTip(tr("Double-click a token to look up its own neighbours"));
    m_nearInfo = new QLabel;
    m_nearInfo->setObjectName("nearInfo");
    m_nearInfo->setWordWrap(true);

    // Similarity
    m_a = new QLineEdit(st.value("embeddings/a", "king").toString());
    m_b = new QLineEdit(st.value("embeddings/b", "queen").toString());
    m_a->setObjectName("similarityA");
    m_b->setObjectName("similarityB");
    m_a->setPlaceholderText(tr("first word or text"));
    m_b->setPlaceholderText(tr("second word or text"));
    m_compare = new QPushButton(tr("Similarity"));
    m_compare->setToolTip(tr("Cosine similarity of the two texts' mean embeddings (Return)"));
    m_simResult = new QLabel(tr("–"));
    m_simResult->setObjectName("similarityResult");
    m_simResult->setWordWrap(true);
    m_simResult->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Map
    m_count = new QSpinBox;
    m_count->setRange(2, 5000);
    m_count->setValue(st.value("embeddings/mapTokens", 200).toInt());
    m_count->setPrefix(tr("top "));
    m_count->setSuffix(tr(" tokens"));
    m_count->setToolTip(tr("How many of the most frequent tokens to map"));
    m_draw = new QPushButton(tr("Draw map"));
    m_draw->setObjectName("drawMap");
    m_draw->setToolTip(tr("Project the tokens on the top two principal components of their embeddings (Ctrl+M)"));
    m_export = new QPushButton(tr("Export CSV…"));
    m_export->setToolTip(tr("Save the map as id,token,count,x,y, as `twb embeddings --map` writes it"));
    m_export->setEnabled(false);
    m_plot = new EmbeddingMapPlot;
    m_plot->setObjectName("embeddingMap");
    m_mapInfo = new QLabel;
    m_mapInfo->setObjectName("mapInfo");
    m_mapInfo->setWordWrap(true);
    m_hover = new QLabel(tr("Hover a point for its token; wheel zooms, drag pans."));
}

void EmbeddingsPanel::layOut() {
    // Layout: queries on the left, the map on the right.
    auto* nearBox = new QGroupBox(tr("Nearest tokens"));
    auto* nearCol = new QVBoxLayout(nearBox);
    auto* wordRow = new QHBoxLayout;
    wordRow->addWidget(m_word, 1);
    wordRow->addWidget(m_k);
    wordRow->addWidget(m_find);
    nearCol->addLayout(wordRow);
    nearCol->addWidget(m_nearInfo);
    nearCol->addWidget(m_table, 1);

    auto* simBox = new QGroupBox(tr("Similarity of two words or texts"));
    auto* simCol = new QVBoxLayout(simBox);
    auto* simRow = new QHBoxLayout;
    simRow->addWidget(m_a, 1);
    simRow->addWidget(m_b, 1);
    simRow->addWidget(m_compare);
    simCol->addLayout(simRow);
    simCol->addWidget(m_simResult);

    auto* left = new QWidget;
    auto* leftCol = new QVBoxLayout(left);
    leftCol->setContentsMargins(0, 0, 0, 0);
    leftCol->addWidget(nearBox, 1);
    leftCol->addWidget(simBox);

    auto* mapBox = new QGroupBox(tr("Map of the most frequent tokens (PCA)"));
    auto* mapCol = new QVBoxLayout(mapBox);
    auto* mapRow = new QHBoxLayout;
    mapRow->addWidget(m_count);
    mapRow->addWidget(m_draw);
    mapRow->addStretch(1);
    mapRow->addWidget(m_export);
    mapCol->addLayout(mapRow);
    mapCol->addWidget(m_mapInfo);
    mapCol->addWidget(m_plot, 1);
    mapCol->addWidget(m_hover);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(mapBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto* col = new QVBoxLayout(this);
    col->addWidget(m_picker);
    col->addWidget(errorLabel());
    col->addWidget(split, 1);
}

void EmbeddingsPanel::connectControls() {
    connect(m_find, &QPushButton::clicked, this, &EmbeddingsPanel::findNeighbours);
    connect(m_word, &QLineEdit::returnPressed, this, &EmbeddingsPanel::findNeighbours);
    connect(m_compare, &QPushButton::clicked, this, &EmbeddingsPanel::compare);
    connect(m_a, &QLineEdit::returnPressed, this, &EmbeddingsPanel::compare);
    connect(m_b, &QLineEdit::returnPressed, this, &EmbeddingsPanel::compare);
    connect(m_draw, &QPushButton::clicked, this, &EmbeddingsPanel::drawMap);
    connect(m_export, &QPushButton::clicked, this, &EmbeddingsPanel::exportMapAsked);
    auto* mapKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_M), this);
    mapKey->setContext(Qt::WidgetWithChildrenShortcut);
    mapKey->setWhatsThis(tr("Draw the embedding map"));
    connect(mapKey, &QShortcut::activated, m_draw, &QPushButton::click);
    connect(m_plot, &EmbeddingMapPlot::hovered, this, [this](const QString& t) {
        m_hover->setText(t.isEmpty() ? tr("Hover a point for its token; wheel zooms, drag pans.") : t);
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        const auto* item = m_table->item(row, 0);
        if (!item)
            return;
        m_word->setText(item->data(Qt::UserRole).toString());
        findNeighbours();
    });
    // Another run or checkpoint: what is shown no longer belongs to it (a run that cannot be shown kept
    // the one before's neighbours and map under its name); cleared, and asked again when visible.
    connect(m_picker, &RunPicker::changed, this, [this] {
        // A translation run is said at once, its buttons off (they stayed on, each press refused)
        const bool translation = [this] {
            try {
                return twb::is_encoder_decoder_run(m_picker->run().toStdString());
            } catch (const std::exception&) {
                return false;
            }
        }();
        if (translation != m_translationRun) {
            m_translationRun = translation;
            busyChanged(isBusy());
            if (!translation)
                clearError();  // the translation run's refusal
        }
        if (translation) {
            clearResults();
            refusesRun();
            return;
        }
        if (m_mapRun == pickedRun())
            return;
        const bool drawn = !m_mapRun.isEmpty();
        clearError();  // the run before's
        clearResults();
        if (isVisible() && drawn)
            askRemembered();
    });
}

void EmbeddingsPanel::clearResults() {
    m_table->setRowCount(0);
    m_nearInfo->clear();
    m_simResult->clear();
    m_plot->setMap({});
    m_plot->replot();
    m_mapInfo->clear();
    m_export->setEnabled(false);
}

void EmbeddingsPanel::askRemembered() {
    if (!m_word->text().isEmpty())
        findNeighbours();
    if (!m_a->text().isEmpty() && !m_b->text().isEmpty())
        compare();
    drawMap();
}

QString EmbeddingsPanel::pickedRun() const {
    return m_picker->run() + "@" + m_picker->checkpoint();
}

EmbeddingsPanel::~EmbeddingsPanel() {
    QSettings st;
    st.setValue("embeddings/word", m_word->text().left(200));
    st.setValue("embeddings/k", m_k->value());
    st.setValue("embeddings/a", m_a->text().left(400));
    st.setValue("embeddings/b", m_b->text().left(400));
    st.setValue("embeddings/mapTokens", m_count->value());
}

void EmbeddingsPanel::connectWorker(ModelWorker* worker) {
    connect(worker, &ModelWorker::neighboursFound, this,
            [this](quint64 id, const twb::NeighbourResult& r, qint64 step) {
                if (!m_pending.remove(id))
                    return;
                setBusy(!m_pending.isEmpty());
                clearError();
                m_table->setRowCount(static_cast<int>(r.neighbours.size()));
                for (int i = 0; i < static_cast<int>(r.neighbours.size()); ++i) {
                    const auto& n = r.neighbours[static_cast<size_t>(i)];
                    auto* tok = new QTableWidgetItem(visibleToken(q(n.text)));
                    tok->setData(Qt::UserRole, q(n.text));
                    auto* id = new QTableWidgetItem;
                    id->setData(Qt::DisplayRole, n.id);
                    auto* sim = new QTableWidgetItem(QLocale().toString(n.similarity, 'f', 4));
                    sim->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                    m_table->setItem(i, 0, tok);
                    m_table->setItem(i, 1, id);
                    m_table->setItem(i, 2, sim);
                }
                m_nearInfo->setText(
                    r.query_ids.size() == 1
                        ? tr("“%1” is token %2 (step %3).").arg(visibleToken(q(r.query)), idList(r.query_ids)).arg(step)
                        : tr("“%1” is %2 tokens (%3); their mean embedding is compared, and they "
                             "are left out (step %4).")
                              .arg(visibleToken(q(r.query)))
                              .arg(r.query_ids.size())
                              .arg(idList(r.query_ids))
                              .arg(step));
            });
    connect(worker, &ModelWorker::similarityFound, this,
            [this](quint64 id, const twb::SimilarityResult& r, qint64 step) {
                if (!m_pending.remove(id))
                    return;
                setBusy(!m_pending.isEmpty());
                clearError();
                const auto tokens = [this](size_t n) { return n == 1 ? tr("1 token") : tr("%1 tokens").arg(n); };
                m_simResult->setText(tr("cosine similarity <b>%1</b> — %2 against %3 (step %4)")
                                         .arg(QLocale().toString(r.similarity, 'f', 4))
                                         .arg(tokens(r.a_ids.size()), tokens(r.b_ids.size()))
                                         .arg(step));
            });
    connect(
        worker, &ModelWorker::embeddingMapReady, this, [this](quint64 id, const twb::EmbeddingMap& map, qint64 step) {
            if (!m_pending.remove(id))
                return;
            setBusy(!m_pending.isEmpty());
            clearError();
            m_plot->setMap(map);
            m_export->setEnabled(true);
            // The sentence in the interface's language where the map says what it holds; the engine's
            // own (English) otherwise: why the dataset could not be read.
            // The dataset by its folder's name, the whole path in the tooltip: at 175% text the path took three
            // of the caption's four lines.
            const QString source = map.by_frequency ? tr("the %1 most frequent tokens of %2 (train + val)")
                                                          .arg(map.points.size())
                                                          .arg(QFileInfo(q(map.dataset)).fileName())
                                                    : q(map.source);
            m_mapInfo->setText(tr("%1 (step %2). The labelled points are the most frequent.").arg(source).arg(step));
            m_mapInfo->setToolTip(map.by_frequency ? q(map.dataset) : QString());
        });
    connect(worker, &ModelWorker::failed, this, [this](quint64 id, const QString& e) {
        const auto it = m_pending.constFind(id);
        if (it == m_pending.constEnd())
            return;
        const Request kind = *it;
        m_pending.erase(it);
        setBusy(!m_pending.isEmpty());
        showError(e);
        // The answer shown was to the word before: under this one's error it read as this one's
        if (kind == Request::Nearest) {
            m_table->setRowCount(0);
            m_nearInfo->setText(tr("No neighbours: the message in red says why."));
        } else if (kind == Request::Similarity) {
            m_simResult->setText(tr("No similarity: the message in red says why."));
        }
    });
}

quint64 EmbeddingsPanel::newRequest(Request kind) {
    const quint64 id = m_model->nextRequestId();
    m_pending.insert(id, kind);
    setBusy(true);
    return id;
}

void EmbeddingsPanel::setRun(const QString& dir) {
    m_picker->setRun(dir);
}
void EmbeddingsPanel::setWord(const QString& word) {
    m_word->setText(word);
}
void EmbeddingsPanel::setTexts(const QString& a, const QString& b) {
    m_a->setText(a);
    m_b->setText(b);
}

bool EmbeddingsPanel::refusesRun() {
    // The engine's refusal spoke of the command line ("translate with twb translate"); this is the panel's.
    try {
        if (!twb::is_encoder_decoder_run(m_picker->run().toStdString()))
            return false;
    } catch (const std::exception&) {  // no run there, or no checkpoint yet: the request says what is wrong
        return false;
    }
    showError(tr("%1 is a translation run; the embedding explorer takes a language model. Its attention, logit "
                 "lens and head ablation are in the other tabs, and the Sampling panel translates with it.")
                  .arg(QFileInfo(m_picker->run()).fileName()));
    return true;
}

void EmbeddingsPanel::findNeighbours() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run first."));
    if (refusesRun())
        return;
    if (m_word->text().isEmpty())
        return showError(tr("Type a word to look up."));
    const quint64 id = newRequest(Request::Nearest);
    QMetaObject::invokeMethod(m_model->worker(), "nearestTokens", Qt::QueuedConnection, Q_ARG(quint64, id),
                              Q_ARG(QString, m_picker->run()), Q_ARG(QString, m_picker->checkpoint()),
                              Q_ARG(QString, m_word->text()), Q_ARG(int, m_k->value()));
}

void EmbeddingsPanel::compare() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run first."));
    if (m_a->text().isEmpty() || m_b->text().isEmpty())
        return showError(tr("Type a word or text in both boxes."));
    if (refusesRun())
        return;
    const quint64 id = newRequest(Request::Similarity);
    QMetaObject::invokeMethod(m_model->worker(), "tokenSimilarity", Qt::QueuedConnection, Q_ARG(quint64, id),
                              Q_ARG(QString, m_picker->run()), Q_ARG(QString, m_picker->checkpoint()),
                              Q_ARG(QString, m_a->text()), Q_ARG(QString, m_b->text()));
}

void EmbeddingsPanel::drawMap() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run first."));
    m_mapRun = pickedRun();  // before a refusal too: another run afterwards asks again
    if (refusesRun())
        return;
    const quint64 id = newRequest(Request::Map);
    QMetaObject::invokeMethod(m_model->worker(), "embeddingMap", Qt::QueuedConnection, Q_ARG(quint64, id),
                              Q_ARG(QString, m_picker->run()), Q_ARG(QString, m_picker->checkpoint()),
                              Q_ARG(int, m_count->value()));
}

bool EmbeddingsPanel::exportMap(const QString& path) {
    try {
        twb::write_file_atomic(path.toStdString(), twb::embedding_map_csv(m_plot->map()));
        emit statusMessage(tr("Wrote %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void EmbeddingsPanel::exportMapAsked() {
    QSettings st;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the embedding map"),
                                                      st.value("embeddings/exportPath", "embedding-map.csv").toString(),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    st.setValue("embeddings/exportPath", path);
    exportMap(path);
}

void EmbeddingsPanel::showEvent(QShowEvent* e) {
    PanelBase::showEvent(e);
    // First look, or the run or checkpoint changed while the panel was hidden (a new run in training):
    // answer the remembered queries and draw the map for the chosen one rather than show another's.
    const bool stale = !m_mapRun.isEmpty() && m_mapRun != pickedRun();
    if ((m_plot->map().points.empty() || stale) && !isBusy() && lastError().isEmpty() && !m_picker->run().isEmpty())
        askRemembered();
}

void EmbeddingsPanel::busyChanged(bool busy) {
    for (QWidget* w : {static_cast<QWidget*>(m_find), static_cast<QWidget*>(m_compare), static_cast<QWidget*>(m_draw)})
        w->setEnabled(!busy && !m_translationRun);  // a translation run's reason stands in the error line
}
