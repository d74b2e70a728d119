// The one route from the UI into the engine's dataset preparation and inspection: each function runs as a
// JobsService job's work (off the UI thread), reports the engine's stages as the job's progress and stops
// when the job is cancelled (the engine then throws twb::Cancelled and writes nothing). The Datasets panel
// and the Training panel's Quick start both prepare through here.
#pragma once
#include "twb/chat.h"
#include "twb/dataset.h"
#include "ui/datasets/TokenizeTab.h"

#include <QString>
#include <QStringList>

class JobContext;

namespace DatasetPreparation {
/// What prepare wrote: the folder, the engine's warnings about it (a validation share that rounded
/// to one document, replaced bytes), each a sentence, and its tokens as the Tokenize tab shows them.
struct Prepared {
    QString dir;
    QStringList warnings;
    TokenizerAnalysis analysis;
};
/// prepare_dataset.
Prepared prepare(const twb::PrepareOptions& options, JobContext& ctx);
/// prepare_parallel (translation pairs).
twb::ParallelPrepareResult prepareParallel(const twb::ParallelPrepareOptions& options, JobContext& ctx);
/// prepare_chat (instruction data for a chat finetune).
twb::ChatPrepareResult prepareChat(const twb::ChatPrepareOptions& options, JobContext& ctx);
/// inspect_tokenization, in the Tokenize tab's terms.
TokenizerAnalysis inspect(const twb::PrepareOptions& options, JobContext& ctx);
}  // namespace DatasetPreparation
