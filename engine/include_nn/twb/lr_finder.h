// The learning-rate range finder: a fresh model trained for a few steps with an exponentially growing
// learning rate, the loss curve and the suggested rate. Runs on the calling thread; on_point reports
// each step and can stop it. Public API (twb_nn); no torch.
#pragma once
#include "twb/config.h"

#include <filesystem>
#include <functional>
#include <vector>

namespace twb {

struct LrFindOptions {
    RunConfig config;             // model, data and optimiser as the run would have them (schedule ignored)
    double min_lr = 1e-7;         // first learning rate
    double max_lr = 1.0;          // last learning rate (reached only when the loss does not diverge first)
    int steps = 100;              // optimiser steps, the rate growing exponentially from min_lr to max_lr
    double smoothing = 0.98;      // exponential moving average of the loss (debiased)
    double diverge_factor = 4.0;  // stop when the smoothed loss exceeds this times the best so far
};

struct LrFindPoint {
    int step = 0;
    double lr = 0;
    double loss = 0;      // this step's training loss
    double smoothed = 0;  // its moving average
};

struct LrFindResult {
    std::vector<LrFindPoint> curve;
    bool diverged = false;    // stopped early: the loss ran away
    double steepest_lr = 0;   // where the smoothed loss falls fastest against log(lr)
    double min_loss_lr = 0;   // where the smoothed loss is lowest
    double suggested_lr = 0;  // min_loss_lr / 10, the usual rule; steepest_lr is the other candidate
};

/// Trains a fresh model (nothing of any run is read or written) with an exponentially growing learning
/// rate and returns the loss curve with the suggestions. on_point returning false stops early.
LrFindResult find_learning_rate(const LrFindOptions& opt, const std::function<bool(const LrFindPoint&)>& on_point = {});

/// The curve as CSV (step,lr,loss,smoothed), written atomically.
void write_lr_curve(const std::filesystem::path& file, const LrFindResult& r);

}  // namespace twb
