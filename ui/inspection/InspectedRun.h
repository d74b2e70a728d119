// The line over the logit lens and the head ablation naming the run and checkpoint they look at: both take
// the Attention tab's choice, which is not on screen while they are.
#pragma once
#include "ui/Workspace.h"

#include <QObject>
#include <QString>

inline QString inspectedRunText(const QString& run, const QString& checkpoint) {
    if (run.isEmpty())
        return QObject::tr("No run chosen: choose one on the Attention tab.");
    // the checkpoint's name in the interface's language ("best" read as English in Bokmål)
    const QString ck = checkpoint == "best"   ? QObject::tr("best")
                       : checkpoint == "last" ? QObject::tr("last")
                                              : QObject::tr("step %1").arg(checkpoint);
    return QObject::tr("Run <b>%1</b>, checkpoint %2 (chosen on the Attention tab)")
        .arg(Workspace::runLabel(run).toHtmlEscaped(), ck.toHtmlEscaped());
}
