// What a ModelSession holds (session.h): shared by session.cpp and the files that implement the rest of
// its interface (analysis/session_inspection.cpp).
#pragma once
#include "nn/decoding/fast_decode.h"
#include "nn/models/model_loader.h"
#include "twb/errors.h"
#include "twb/inspection.h"
#include "twb/session.h"

#include <memory>
#include <vector>

namespace twb {

struct ModelSession::Impl {
    nn::LoadedModel m;
    bool open = false;
    std::string stamp;                        // checkpoint_stamp() of m.checkpoint when it was loaded
    std::shared_ptr<const FastWeights> fast;  // bf16 weights for the fast decoder, converted on first use
    DType scoring = DType::Float32;           // log_probs, score_text, score_continuation
    std::vector<HeadRef> ablated;             // heads switched off (set_ablated_heads)

    nn::LoadedModel& need() {
        if (!open)
            throw InputError("no checkpoint is loaded; choose a run first");
        return m;
    }
};

}  // namespace twb
