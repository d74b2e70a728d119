#include "ui/workers/ModelThread.h"

#include "ui/workers/ModelWorker.h"
#include "ui/workers/TranslationWorker.h"

ModelThread::ModelThread(QObject* parent)
    : QObject(parent), m_worker(new ModelWorker), m_translation(new TranslationWorker) {
    ModelWorker::registerTypes();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    TranslationWorker::registerTypes();
    m_translation->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_translation, &QObject::deleteLater);
    m_thread.setObjectName("model");
    m_thread.start();
}

ModelThread::~ModelThread() {
    m_thread.quit();
    m_thread.wait();
}
