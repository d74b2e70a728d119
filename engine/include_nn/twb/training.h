// Training a model on a prepared dataset, headless: twb::train runs a whole job (train_job.h) on the
// calling thread and reports through callbacks called on that same thread. The GUI worker and
// `twb train` both drive it. Public API (twb_nn); no torch.
#pragma once
#include "twb/train_job.h"

namespace twb {

/// Runs a training job to max_iters or until stopped. On stop a checkpoint is written first.
/// Throws twb::Error subclasses with actionable messages (bad config, data, NaN loss naming the step,
/// a model that does not fit in memory). The run folder is locked while the job writes it: a second
/// job on the same folder, in this process or another, is refused naming the process that holds it.
TrainSummary train(const TrainJob& job, const TrainCallbacks& callbacks = {}, TrainControl* control = nullptr);

}  // namespace twb
