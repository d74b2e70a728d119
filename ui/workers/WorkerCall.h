// What the model-thread workers (ModelWorker, TranslationWorker) share: a request run with any engine
// error turned into the worker's failed(id, message) signal, and engine text (UTF-8) as a QString.
#pragma once
#include <QString>

#include <exception>
#include <string>

template <class W, class F>
void guarded(W* w, quint64 id, F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        emit w->failed(id, QString::fromStdString(e.what()));
    }
}

inline QString std2q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
