// The attention viewer: for a run's checkpoint and any prompt, every layer and head at a glance
// (HeadGrid, with entropy / previous-token / first-token scores) and one view large (a head, a layer's
// mean over heads, or attention rollout) as a labelled heatmap with hover, zoom and pan. The probe
// timeline scrubs through the attention captured at every evaluation of a run, live while it trains,
// with the chosen score of every head plotted against step (HeadScorePlot). A Positions tab shows the
// positional encoding (PositionsView). Capture runs in a ModelWorker on a ModelThread, shared with the
// Sampling panel when the main window hands one in. Weights export in the engine's one attention
// format (twb::write_attention_json, as `twb attention --out`) or as CSV. Beside the attention view,
// an Embeddings tab holds the embedding explorer (EmbeddingsPanel, on the same model thread). For an
// encoder-decoder (translation) run, a kind selector picks encoder self-, decoder self- or
// cross-attention (target tokens down, source tokens across) of a source sentence and a target (given, or
// the model's translation); its probe timeline holds the cross-attention of a fixed validation pair.
#pragma once
#include "ui/widgets/PanelBase.h"
#include "ui/workers/ModelWorker.h"

#include <QSet>
#include <QTimer>
#include <map>
#include <memory>

class EmbeddingsPanel;
class EnlargeToggle;
class HeadAblationView;
class LogitLensView;
class Heatmap;
class HeadGrid;
class HeadScorePlot;
class ModelThread;
class PositionsView;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QTabWidget;
class RunPicker;

class AttentionPanel : public PanelBase {
    Q_OBJECT
public:
    /// model: the thread that runs checkpoints, shared with other panels; null = the panel makes its own.
    /// model: the shared model thread, jobs: the main window's service (each made for the panel when null).
    explicit AttentionPanel(ModelThread* model = nullptr, JobsService* jobs = nullptr, QWidget* parent = nullptr);
    ~AttentionPanel() override;

    enum class View { Head, LayerMean, Rollout };
    /// Which attention of an encoder-decoder run is shown (the kind selector's order).
    enum class Kind { EncoderSelf, DecoderSelf, Cross };
    RunPicker* picker() const { return m_picker; }
    /// The Embeddings tab (the embedding explorer) and the tabs that hold it beside the attention view.
    EmbeddingsPanel* embeddings() const { return m_embeddings; }
    /// The Logit lens and Head ablation pages (issue 39's views inside the model).
    LogitLensView* lens() const { return m_lens; }
    HeadAblationView* ablation() const { return m_ablation; }
    QTabWidget* pages() const { return m_pages; }
    const twb::AttentionCapture& capture() const { return m_cap; }
    const twb::ProbeTimeline& timeline() const { return m_timeline; }
    Heatmap* heatmap() const { return m_heat; }
    HeadGrid* grid() const { return m_grid; }
    /// The kind selector: enabled for encoder-decoder runs only.
    QComboBox* kindBox() const { return m_kindBox; }
    /// The target sentence (encoder-decoder runs; empty = the model's translation).
    QLineEdit* targetEdit() const { return m_target; }
    /// True when the capture shown comes from an encoder-decoder run.
    bool isTranslation() const { return m_translation; }
    /// The encoder-decoder capture last taken (its three kinds).
    const twb::TranslationAttention& pairCapture() const { return m_pair; }
    Heatmap* positionMap() const;
    QCustomPlot* scorePlot() const;
    QSlider* timelineSlider() const { return m_slider; }
    /// Step shown: the checkpoint's for a prompt, the slider's in timeline mode.
    qint64 shownStep() const { return m_step; }

    void setPrompt(const QString& text);
    void setView(View v);
    void setScore(int index);  // 0 entropy, 1 previous token, 2 first token, 3 self, 4 ablation cost
    void setKind(Kind k);
    void setTarget(const QString& text);

    /// The capture shown, in the engine's attention export format (twb::write_attention_json).
    bool exportJson(const QString& path) const;
    bool exportCsv(const QString& path) const;

public slots:
    void setRun(const QString& dir);
    /// Captures the prompt's attention at the chosen checkpoint.
    void showPrompt();
    /// Switches to the run's probe timeline (reloads it).
    void showTimeline();
    void setTimelineIndex(int i);
    void select(int layer, int head);
    void loadPositions();
    /// A run wrote a checkpoint: refresh live views of that run.
    void runUpdated(const QString& run);
    /// The Selected tab over the whole page (Enlarge, a double-click on the map; Esc returns): the run
    /// picker, the prompt and the head grid step aside -- a projector's 175% text left the map a strip.
    void setMapEnlarged(bool on);
    bool mapEnlarged() const;

signals:
    void captureRequested(const AttentionRequest& r);
    void positionsRequested(quint64 id, const QString& run, const QString& checkpoint);
    void probeRequested(quint64 id, const QString& run);
    void validationRequested(quint64 id, const QString& run);

protected:
    void showEvent(QShowEvent* e) override;
    /// The grid's viewport resized (the panel, the splitter moved, the text size changed): the thumbnails refit.
    bool eventFilter(QObject* watched, QEvent* e) override;
    void busyChanged(bool busy) override;

private:
    // The prompt of a language model and the source sentence of a translation model, remembered apart.
    static constexpr const char* kPromptKey = "attention/prompt";
    static constexpr const char* kSourceKey = "attention/source";
    /// The probe's record file whose size the live poll watches.
    static QString probeFile(const QString& run, const twb::ProbeTimeline& t);
    // Building (AttentionPanel.cpp) and wiring (AttentionPanelWiring.cpp).
    void createControls();
    void layOut();
    /// Empties the maps (their empty state shows): another run's capture, or nothing to capture.
    void clearShown();
    QWidget* buildSelectedTab();
    /// The line under the map while nothing is hovered.
    static QString hoverHint();
    void connectControls();
    /// A new run chosen, and the probe file of a run trained elsewhere polled while the timeline shows.
    void connectRunFollowing();
    void connectWorker(ModelWorker* worker);
    quint64 newRequest();
    void showCapture(const twb::AttentionCapture& cap, const twb::HeadScores& scores, qint64 step);
    void showProbe(const QString& run, const twb::ProbeTimeline& t, const std::vector<twb::HeadScores>& scores);
    void redraw();
    /// Said under a cross-attention map when every head's normalised entropy is kUniformEntropy or more.
    QString uniformCrossWarning() const;
    static constexpr float kUniformEntropy = 0.95f;
    void applyKind();
    void showTranslationControls(bool on);
    bool switchPromptKind(bool translation);  // true: the prompt was the other kind's, capturing again
    /// 1: the chosen run is an encoder-decoder, 0: a decoder LM, -1: its config cannot be read.
    int runIsTranslation() const;
    /// The picker chose another run: what was asked of the old one is dropped, and the new one is
    /// captured now when the panel is on screen, else when it is next shown.
    void followRun();
    void redrawScores();
    void exportView();
    void exportData();
    std::vector<float> currentScores() const;

    RunPicker* m_picker;
    QPlainTextEdit* m_prompt;
    QLineEdit* m_target;
    QComboBox* m_kindBox;
    QPushButton* m_show;
    QPushButton* m_fromVal;
    QPushButton* m_exportView;
    QPushButton* m_exportData;
    EnlargeToggle* m_enlarge;  // Enlarge / Restore beside the exports, and Esc
    QWidget* m_promptArea;     // the mode, prompt and Show column: set aside with the grid while the map is enlarged
    QWidget* m_left;           // the score chooser and the head grid
    QRadioButton* m_modePrompt;
    QRadioButton* m_modeTimeline;
    QComboBox* m_view;
    QComboBox* m_score;
    QSpinBox* m_layerBox;
    QSpinBox* m_headBox;
    HeadGrid* m_grid;
    QScrollArea* m_gridScroll;
    Heatmap* m_heat;
    QLabel* m_hover;
    QLabel* m_info;
    QSlider* m_slider;
    QLabel* m_stepLabel;
    HeadScorePlot* m_scorePlot;
    PositionsView* m_positions;
    QTabWidget* m_tabs;
    QCheckBox* m_live = nullptr;
    QTabWidget* m_pages;
    EmbeddingsPanel* m_embeddings;
    LogitLensView* m_lens;
    HeadAblationView* m_ablation;
    twb::AblationTable m_ablationCosts;  // the ablation page's last cost table (every_head); the grid's last score

    std::unique_ptr<ModelThread> m_ownModel;  // only when no shared thread was given
    ModelThread* m_model;
    QSet<quint64> m_pending;  // requests sent and not yet answered
    twb::AttentionCapture m_cap;
    QString m_capturedRun;                    // the run of the capture shown: a failed capture of another run clears it
    twb::HeadScores m_scores;                 // of m_cap, computed by the worker with the capture
    QString m_checkpoint;                     // folder m_cap came from, for the export
    std::map<int, std::string> m_tokenTexts;  // tokens m_cap.next_top names, for the export
    bool m_translation = false;               // the run is an encoder-decoder
    QString m_kindPrompt;                     // the prompt loaded or captured for this kind of run
    QString m_otherPrompt;                    // the prompt of the other kind of run (see switchPromptKind)
    QString m_followedRun;                    // the run followRun() last saw
    bool m_staleRun = false;                  // the run changed while hidden: capture when shown
    twb::TranslationAttention m_pair;
    std::vector<twb::HeadScores> m_pairScores;  // encoder self, decoder self, cross
    twb::ProbeTimeline m_timeline;
    std::vector<twb::HeadScores> m_timelineScores;
    qint64 m_step = 0;
    int m_layer = 0, m_head = 0;
    QTimer m_poll;
    qint64 m_probeBytes = -1;
};
