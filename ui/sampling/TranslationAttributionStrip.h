// Under the translation console's output: when a translated token is clicked, the source tokens and the
// earlier target tokens it was predicted from, each tinted by its gradient x input for that token (blue
// raised it, red lowered it). The figures come from Translator::attribute (as `twb attribute` on a
// translation run), computed once per translation in a job off the UI thread; another click on the same
// translation reads the same result.
#pragma once
#include "twb/inspection.h"
#include "twb/translation.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <mutex>

class Job;
class JobsService;
class QLabel;
class QPushButton;
class QTextBrowser;

class TranslationAttributionStrip : public QWidget {
    Q_OBJECT
public:
    explicit TranslationAttributionStrip(JobsService* jobs, QWidget* parent = nullptr);

    /// Shows where target token `index` of the translation (`target`, its ids as streamed) of `source`
    /// came from.
    void attribute(const QString& run, const QString& checkpoint, const QString& source,
                   const std::vector<int32_t>& target, int index);
    void clear();
    const twb::TranslationAttribution& result() const { return m_result; }
    /// The target token shown (-1: none).
    int index() const { return m_index; }
    /// Writes the whole translation's attribution: .json, else CSV (as `twb attribute`). False when there
    /// is nothing or the file cannot be written.
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
    QPushButton* m_export;
    QTextBrowser* m_view;
    twb::TranslationAttribution m_result;
    QString m_resultKey;  // run, checkpoint, source and target ids of m_result
    int m_index = -1;
    // One translator for the strip's jobs, kept open between them; they take turns on it.
    struct Model {
        std::mutex lock;
        twb::Translator translator;
        std::string run, checkpoint;
    };
    std::shared_ptr<Model> m_model;
    QPointer<Job> m_job;
    quint64 m_request = 0;  // the newest click; an older answer is dropped
};
