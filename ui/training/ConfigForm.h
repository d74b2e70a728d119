// The run-config form: grouped fields (model, architecture, optimisation, evaluation, runtime) with
// tooltips, a preset chooser, live parameter count (by part) and memory estimate, and inline validation
// that says what is wrong. Its rows are the option table's (twb/config_options.h): every key with a form
// label, in the table's order and group, its widget by the key's type, its tooltip from the help text,
// its limits from the range, and the model kind that shows it from the key's families. It edits a
// twb::RunConfig and nothing else.
#pragma once
#include "twb/config.h"
#include "twb/config_options.h"

#include <QWidget>
#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QFormLayout;

class ConfigForm : public QWidget {
    Q_OBJECT
public:
    explicit ConfigForm(QWidget* parent = nullptr);
    twb::RunConfig config() const;
    void setConfig(const twb::RunConfig& c);
    /// The dataset's vocabulary size, for the parameter count (0 = unknown).
    void setVocabSize(int v);
    /// Problems of the current values in the form's words (empty = Start may proceed).
    std::vector<std::string> problems() const;
    /// The first problem, in the form's words ("Heads: ..."), empty when there is none.
    QString problemSummary() const;
    void applyPreset(const QString& name);
    /// Chat data trains as documents whatever a preset says (the engine sets it): a preset chosen for it
    /// keeps Sequences at documents (it showed "stream" for a run that trained as documents).
    void setDocumentsOnly(bool on) { m_documentsOnly = on; }
    /// Sets the model kind (the form shows that kind's fields); the other values stay.
    void setModelKind(twb::ModelKind kind);
    twb::ModelKind modelKind() const;
    /// Whether the field of this config key is shown for the current model kind (tests, the panel).
    bool isFieldShown(const QString& key) const;
    /// Whether Decay steps follow Steps while the two are equal (a new run: yes; one that has started,
    /// whose schedule a larger Steps continues: no).
    void setDecayFollowsSteps(bool on) { m_decayFollowsSteps = on; }
    /// A cosine schedule that ends a tenth of the run or more before its last step (a run's Train more, carried
    /// into a new run or a sweep), said: "The learning rate reaches its minimum at step 500 of 1,000 (Decay steps):
    /// the last 500 steps train at 0.0001."; one that ends a tenth or more after it: "Training ends at step 300
    /// of the cosine's 500 (Decay steps): the learning rate is still 0.000463 there, not its minimum 0.0001.";
    /// "" otherwise.
    static QString decayNote(const twb::RunConfig& c);

signals:
    void changed();

private:
    void refresh();
    /// A field was changed by its widget: a problem naming several fields is explained under that one.
    void edited(QWidget* w);
    /// Scrolls the form to a field and gives it the focus (the links of the problems' line).
    void showField(const QString& key);
    void selectMatchingPreset();
    /// Whether the form's values (mine, as config.json) are exactly the named preset's.
    bool matchesPreset(const nlohmann::json& mine, const QString& name) const;
    struct Problem {
        QString text;       // in the form's words (labels, not config keys)
        QStringList where;  // the keys of the fields it concerns (may be empty)
    };
    std::vector<Problem> fieldProblems() const;
    struct Field {
        std::function<void(twb::RunConfig&)> read;         // widget -> config
        std::function<void(const twb::RunConfig&)> write;  // config -> widget
        QString key, label;
        QWidget* widget = nullptr;
        QLabel* note = nullptr;                 // below the field: what is wrong with it (hidden when nothing)
        std::function<QString()> rangeProblem;  // the form's own limits, e.g. "Steps must be at least 1"
        QFormLayout* form = nullptr;            // the row's layout and its field box (for hiding the row)
        QWidget* row = nullptr;
        int kinds = kBothKinds;  // the model kinds that use the field (kDecoderOnly, kEncoderDecoderOnly)
    };
    static constexpr int kDecoderOnly = 1, kEncoderDecoderOnly = 2, kBothKinds = 3;
    /// Shows the rows the current model kind uses, hides the others.
    void updateKindRows();
    // ConfigFormRows.cpp
    /// One row for a key of the option table, its widget by the key's type.
    void addOption(QFormLayout* f, const twb::ConfigOption& o);
    /// Puts a field and its (hidden) problem note into a row of f.
    Field& addRow(QFormLayout* f, const twb::ConfigOption& o, QWidget* w);
    void addInt(QFormLayout* f, const twb::ConfigOption& o);
    /// The seed: 64-bit in the config, the 31-bit range here.
    void addSeed(QFormLayout* f, const twb::ConfigOption& o);
    void addDouble(QFormLayout* f, const twb::ConfigOption& o);
    /// A combo box over a choice key's spellings, in the engine's order.
    void addChoice(QFormLayout* f, const twb::ConfigOption& o);
    void addBool(QFormLayout* f, const twb::ConfigOption& o);
    /// A path field with a Browse button (files; a run folder may be typed); "" = unset. Names a
    /// problem when the path does not exist.
    void addPath(QFormLayout* f, const twb::ConfigOption& o);
    /// The device chooser: auto, the CPU by name, each CUDA device the driver sees with its name and
    /// memory; a value from elsewhere ("cuda", "cuda:3") is kept as an item of its own.
    void addDevice(QFormLayout* f, const twb::ConfigOption& o);
    /// Text in the engine's words with each key the form shows replaced by its label.
    static QString inFormWords(QString text);

    std::vector<Field> m_fields;
    twb::RunConfig m_base;  // keeps fields the form does not show (data_dir, probe_prompt, ...)
    bool m_documentsOnly = false;
    QComboBox* m_preset = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_problems = nullptr;  // the problems no field names, and links to the fields with one
    QString m_edited;              // the key of the field changed last
    int m_vocab = 0;
    bool m_loading = false;
    bool m_decayFollowsSteps = true;
};
