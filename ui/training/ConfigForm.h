// The run-config form: grouped fields (model, architecture, optimisation, evaluation, runtime) with
// tooltips, a preset chooser, live parameter count (by part) and memory estimate, and inline validation
// that says what is wrong. The model kind (decoder LM / encoder-decoder) shows the fields that kind uses
// and hides the others. It edits a twb::RunConfig and nothing else.
#pragma once
#include "twb/config.h"

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
    /// Sets the model kind (the form shows that kind's fields); the other values stay.
    void setModelKind(twb::ModelKind kind);
    twb::ModelKind modelKind() const;
    /// Whether the field of this config key is shown for the current model kind (tests, the panel).
    bool isFieldShown(const QString& key) const;

signals:
    void changed();

private:
    void refresh();
    void selectMatchingPreset();
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
    /// Marks the fields of these keys as used by one model kind only.
    void onlyFor(int kinds, std::initializer_list<const char*> keys);
    /// Puts a field and its (hidden) problem note into a row of f.
    Field& addRow(QFormLayout* f, const char* key, const QString& label, QWidget* w);
    void addInt(QFormLayout* f, const char* key, const QString& label, int twb::RunConfig::*member, int lo, int hi,
                const QString& tip, const QString& zeroText = QString());
    void addDouble(QFormLayout* f, const char* key, const QString& label, double twb::RunConfig::*member, double lo,
                   double hi, int decimals, const QString& tip);
    /// A combo box over one of the engine's choices (choices.h): its names, in the engine's order.
    template <class E>
    void addChoice(QFormLayout* f, const char* key, const QString& label, E twb::RunConfig::*member, const QString& tip,
                   const QStringList& itemLabels = {});
    void addBool(QFormLayout* f, const char* key, const QString& label, bool twb::RunConfig::*member,
                 const QString& tip);
    /// A path field with a Browse button (files; a run folder may be typed); "" = unset. Names a
    /// problem when the path does not exist.
    void addPath(QFormLayout* f, const char* key, const QString& label, std::string twb::RunConfig::*member,
                 const QString& tip, const QString& placeholder);

    std::vector<Field> m_fields;
    twb::RunConfig m_base;  // keeps fields the form does not show (data_dir, probe_prompt, ...)
    QComboBox* m_preset = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_problems = nullptr;
    int m_vocab = 0;
    bool m_loading = false;
};
