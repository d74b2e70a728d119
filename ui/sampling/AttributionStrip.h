// Under the Sampling console's output: when a generated token is clicked, the tokens it was predicted from,
// each tinted by how much it contributed, by gradient x input (blue raised the token, red lowered it) or by
// attention rollout (the share of the last position's attention that reaches it), chosen beside the strip.
// The figures come from ModelSession::attribute (as `twb attribute`), computed in a job off the UI thread.
#pragma once
#include "twb/inspection.h"
#include "twb/session.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <mutex>

class Job;
class JobsService;
class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;

class AttributionStrip : public QWidget {
    Q_OBJECT
public:
    explicit AttributionStrip(JobsService* jobs, QWidget* parent = nullptr);

    /// Attributes `target` to the context it followed (the strip shows the last block_size tokens of it).
    void attribute(const QString& run, const QString& checkpoint, const std::vector<int32_t>& context, int target);
    void clear();
    const twb::TokenAttribution& result() const { return m_result; }
    /// 0: gradient x input, 1: attention rollout.
    void setMeasure(int index);
    /// Writes the attribution shown: .json, else CSV (the engine's formats, as `twb attribute`). False when
    /// there is nothing or the file cannot be written.
    bool exportNumbers(const QString& path) const;
    QString html() const;

signals:
    void finished();
    void failed(const QString& error);

private:
    void render();
    void exportAsked();

    JobsService* m_jobs;
    QLabel* m_title;
    QComboBox* m_measure;
    QPushButton* m_export;
    QTextBrowser* m_view;
    twb::TokenAttribution m_result;
    // One model for the strip's jobs; a click while a job runs starts another, so they take turns on it.
    struct Model {
        std::mutex lock;
        twb::ModelSession session;
    };
    std::shared_ptr<Model> m_model;
    QPointer<Job> m_job;
    quint64 m_request = 0;  // the newest click; an older answer is dropped
};
