// A training micro-batch's forward and backward recorded once as a CUDA graph and replayed for every
// later one (training_run.h): one launch instead of the ~1,500 that a small model's step makes one by
// one, which bound its speed on a GPU whose host issues them slower than the GPU runs them. For a GPU,
// queued steps (the host does not wait) and batches whose shapes never change (the decoder's token
// stream, not documents and not the encoder-decoder's pairs). Before recording, the pass runs once
// eagerly on the recording stream (cuBLAS and autograd set up outside the recording); its gradients
// are cleared and its random draws given back, so recording changes nothing but speed. Dropout's draws
// in a replay come from the same seeded generator, in another order than eager steps'. TWB_CUDA_GRAPHS=0
// turns it off; a recording that fails leaves eager steps, with the reason told once.
#pragma once
#include "nn/cuda_graph.h"
#include "nn/training/model_family.h"
#include "nn/training/optimizer.h"

#include <torch/torch.h>

#include <functional>
#include <string>
#include <utility>

namespace twb::nn {

class StepGraph {
public:
    /// One micro-batch forward and backward (gradients accumulated into the optimiser's buffer); returns
    /// its loss (as backward saw it) and the target tokens.
    using Pass = std::function<std::pair<torch::Tensor, int64_t>(const TrainBatch&)>;

    /// `pass` over `batch`, replayed from the recording. The first call records it (the gradients must
    /// be zero then: a step's first micro-batch); a batch of other shapes than the recorded one, or a
    /// recording that failed, runs `pass` itself. The loss returned is a copy the next replay keeps.
    std::pair<torch::Tensor, int64_t> run(const TrainBatch& batch, const Pass& pass, FlatAdamW& opt);
    bool replaying() const { return m_replaying; }
    /// Why steps run eagerly after a recording was tried; empty while replaying.
    const std::string& eager_reason() const { return m_eagerReason; }

private:
    void record(const TrainBatch& batch, const Pass& pass, FlatAdamW& opt);
    bool same_shapes(const TrainBatch& batch) const;

    bool m_tried = false, m_replaying = false;
    std::string m_eagerReason;
    TrainBatch m_inputs;  // the recorded pass reads these; each replay copies its batch into them
    torch::Tensor m_loss;
    int64_t m_tokens = 0;
    CudaGraph m_graph;
};

}  // namespace twb::nn
