// The embedding explorer, shown as the Embeddings tab of the Attention panel: for a run's checkpoint,
// a word's nearest tokens by cosine similarity of their embedding rows (a word of several tokens is
// their mean), the similarity of two words or short texts, and a 2-D map (PCA) of the most frequent
// tokens with hover (EmbeddingMapPlot). Every query runs on the shared ModelWorker; the panel only
// sends requests and shows answers. The figures come from twb::ModelSession (twb/embeddings.h), the
// same as `twb embeddings`.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/ModelWorker.h"

#include <QHash>
#include <memory>

class EmbeddingMapPlot;
class ModelThread;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class RunPicker;

class EmbeddingsPanel : public PanelBase {
    Q_OBJECT
public:
    /// model: the thread that runs checkpoints, shared with other panels; null = the panel makes its own.
    explicit EmbeddingsPanel(ModelThread* model = nullptr, QWidget* parent = nullptr);
    ~EmbeddingsPanel() override;

    RunPicker* picker() const { return m_picker; }
    QTableWidget* neighbourTable() const { return m_table; }
    EmbeddingMapPlot* mapPlot() const { return m_plot; }
    QLabel* similarityLabel() const { return m_simResult; }

    void setWord(const QString& word);
    void setTexts(const QString& a, const QString& b);

public slots:
    void setRun(const QString& dir);
    /// The word box's nearest tokens.
    void findNeighbours();
    /// The two boxes' similarity.
    void compare();
    /// The map of the N most frequent tokens.
    void drawMap();
    /// Writes the map shown as CSV (twb::embedding_map_csv, as `twb embeddings --map`).
    bool exportMap(const QString& path);

protected:
    void showEvent(QShowEvent* e) override;
    void busyChanged(bool busy) override;

private:
    /// "RUN@CHECKPOINT" of the run picker's choice.
    QString pickedRun() const;
    /// Says so and returns true when the chosen run is a translation run (no embeddings explorer for it).
    bool refusesRun();
    bool m_translationRun = false;  // the chosen run is an encoder-decoder: the buttons are off
    /// Empties the neighbours, the similarity and the map: they belong to another run or checkpoint.
    void clearResults();
    /// Asks again what the boxes hold (neighbours, similarity) and draws the map, for the chosen run.
    void askRemembered();
    /// The nearest-tokens, similarity and map controls; then their layout and signals.
    void createControls();
    void layOut();
    void connectControls();
    void connectWorker(ModelWorker* worker);
    enum class Request { Nearest, Similarity, Map };
    quint64 newRequest(Request kind);
    void exportMapAsked();

    RunPicker* m_picker;
    QLineEdit* m_word;
    QSpinBox* m_k;
    QPushButton* m_find;
    QTableWidget* m_table;
    QLabel* m_nearInfo;
    QLineEdit* m_a;
    QLineEdit* m_b;
    QPushButton* m_compare;
    QLabel* m_simResult;
    QSpinBox* m_count;
    QPushButton* m_draw;
    QPushButton* m_export;
    EmbeddingMapPlot* m_plot;
    QLabel* m_mapInfo;
    QLabel* m_hover;

    std::unique_ptr<ModelThread> m_ownModel;  // only when no shared thread was given
    ModelThread* m_model;
    QHash<quint64, Request> m_pending;  // what each request under way asks: a failed one's old answer goes
    QString m_mapRun;  // run and checkpoint the map shown came from (pickedRun()), to redraw it when they change
};
