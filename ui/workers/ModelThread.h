// One ModelWorker on its own QThread: the loaded checkpoint the Attention and Sampling panels share.
// The main window makes one and hands it to both, so a checkpoint both panels show is loaded once; a
// panel made on its own (tests, tools) makes its own. Requests queue on the one thread, so the worker's
// ModelSession serves one request at a time. Every request carries an id from nextRequestId() and
// every answer carries it back, so a panel takes only the answers to its own requests.
#pragma once
#include <QObject>
#include <QThread>

class ModelWorker;
class TranslationWorker;

class ModelThread : public QObject {
    Q_OBJECT
public:
    explicit ModelThread(QObject* parent = nullptr);
    /// Quits the thread and waits for the request in progress (cancel long generations first).
    ~ModelThread() override;
    ModelWorker* worker() const { return m_worker; }
    /// The encoder-decoder runs' worker (the Sampling console's translation mode), on the same thread.
    TranslationWorker* translationWorker() const { return m_translation; }
    /// A fresh request id, unique among all users of this thread (call from the UI thread).
    quint64 nextRequestId() { return ++m_lastId; }

private:
    QThread m_thread;
    ModelWorker* m_worker;
    TranslationWorker* m_translation;
    quint64 m_lastId = 0;
};
