// The learning-rate range finder (Smith 2017, as in fastai's lr_find): a fresh model trained for a few
// steps with the learning rate growing exponentially, the smoothed loss against the rate, and the
// rates to suggest. Nothing of any run is read or written.
#include "twb/lr_finder.h"
#include "core/data/token_file.h"
#include "nn/device.h"
#include "nn/models/model.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"
#include "nn/training/optimizer.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

namespace twb {

namespace {
/// A rate as people write it: 1e-09, 0.003 (std::to_string wrote 1e-9 as 0.000000).
std::string format_number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

void check_options(const LrFindOptions& o) {
    if (!(o.min_lr > 0 && o.max_lr > o.min_lr))
        throw ConfigError("the range finder needs 0 < min lr < max lr (got " + format_number(o.min_lr) + " and " +
                          format_number(o.max_lr) + ")");
    if (o.steps < 10 || o.steps > 100000)
        throw ConfigError("the range finder needs between 10 and 100,000 steps (got " + std::to_string(o.steps) + ")");
    if (!(o.smoothing >= 0 && o.smoothing < 1) || !(o.diverge_factor > 1))
        throw ConfigError("smoothing must be in [0, 1) and the divergence factor above 1");
}

/// Suggestions from the curve: the lowest smoothed loss, a tenth of its rate, and the steepest fall before it.
void suggest(LrFindResult& r) {
    size_t iMin = 0;
    for (size_t i = 0; i < r.curve.size(); ++i)
        if (r.curve[i].smoothed < r.curve[iMin].smoothed)
            iMin = i;
    r.min_loss_lr = r.curve[iMin].lr;
    r.suggested_lr = r.min_loss_lr / 10;
    double steepest = INFINITY;
    r.steepest_lr = r.curve[iMin].lr;
    for (size_t i = 1; i <= iMin; ++i) {
        const double slope =
            (r.curve[i].smoothed - r.curve[i - 1].smoothed) / (std::log(r.curve[i].lr) - std::log(r.curve[i - 1].lr));
        if (slope < steepest) {
            steepest = slope;
            r.steepest_lr = r.curve[i].lr;
        }
    }
}

/// A fresh model, its optimiser and batches over the train split: what the range is swept on.
struct Sweep {
    RunConfig cfg;
    PreparedDataset data;
    torch::Device device = torch::kCPU;
    bool bf16 = false;
    TokenFile train;
    nn::GPT model{nullptr};
    std::unique_ptr<nn::FlatAdamW> opt;
    std::unique_ptr<nn::Batcher> batcher;

    explicit Sweep(const RunConfig& config) : cfg(config) {
        if (cfg.data_dir.empty())
            throw ConfigError("no dataset given (twb lr-find --data DIR)");
        data = open_prepared(cfg.data_dir);
        if (cfg.vocab_size == 0)
            cfg.vocab_size = data.vocab_size;
        cfg.check();
        nn::check_training_threads(cfg.threads);
        nn::apply_threads(cfg.threads);
        device = nn::resolve_device(cfg.device);
        bf16 = nn::resolve_precision(cfg.dtype, device).dtype == DType::BFloat16;
        torch::manual_seed(cfg.seed);
        train = open_split(data, "train");
        if (static_cast<int64_t>(train.size()) <= cfg.block_size)
            throw InputError(data.dir.string() + ": the train split has fewer than block_size+1 tokens");
        model = nn::GPT(cfg);
        model->to(device);
        model->train();
        opt = std::make_unique<nn::FlatAdamW>(model->named_weights(), cfg);
        batcher = std::make_unique<nn::Batcher>(train, cfg.block_size, cfg.batch_size, cfg.seed);
    }

    /// The loss of one optimiser step's micro-batches, gradients accumulated (not applied).
    double loss_and_gradients() {
        double lossSum = 0;
        for (int micro = 0; micro < cfg.gradient_accumulation_steps; ++micro) {
            auto [x, y] = batcher->next(device);
            torch::Tensor loss;
            nn::with_autocast(device, bf16, [&] {
                auto logits = model->forward(x);
                loss = torch::nn::functional::cross_entropy(
                    logits.view({-1, logits.size(-1)}).to(torch::kFloat32), y.reshape({-1}),
                    torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(cfg.label_smoothing));
            });
            loss = loss / cfg.gradient_accumulation_steps;
            loss.backward();
            lossSum += loss.item<double>();
        }
        return lossSum;
    }
};
}  // namespace

LrFindResult find_learning_rate(const LrFindOptions& o, const std::function<bool(const LrFindPoint&)>& on_point) {
    check_options(o);
    Sweep sweep(o.config);
    LrFindResult r;
    double avg = 0, best = INFINITY;
    for (int i = 0; i < o.steps; ++i) {
        const double lr = std::exp(std::log(o.min_lr) + (std::log(o.max_lr) - std::log(o.min_lr)) * i / (o.steps - 1));
        LrFindPoint p;
        p.step = i;
        p.lr = lr;
        p.loss = sweep.loss_and_gradients();
        if (!std::isfinite(p.loss) || !sweep.opt->grads_finite()) {
            r.diverged = true;
            break;
        }
        sweep.opt->clip_grad_norm(sweep.cfg.grad_clip);
        sweep.opt->step(lr);
        sweep.opt->zero_grad();
        avg = o.smoothing * avg + (1 - o.smoothing) * p.loss;
        p.smoothed = avg / (1 - std::pow(o.smoothing, i + 1));  // bias-corrected, as Adam's moments
        r.curve.push_back(p);
        best = std::min(best, p.smoothed);
        if (on_point && !on_point(p))
            break;
        if (p.smoothed > o.diverge_factor * best) {
            r.diverged = true;
            break;
        }
    }
    if (r.curve.size() < 3)
        throw Error("the loss diverged at once (learning rate " + std::to_string(o.min_lr) +
                    "); start the range lower (--min-lr)");
    suggest(r);
    return r;
}

void write_lr_curve(const std::filesystem::path& file, const LrFindResult& r) {
    std::string csv = "step,lr,loss,smoothed\n";
    char buf[128];
    for (const auto& p : r.curve) {
        std::snprintf(buf, sizeof buf, "%d,%.6g,%.6g,%.6g\n", p.step, p.lr, p.loss, p.smoothed);
        csv += buf;
    }
    write_file_atomic(file, csv);
}

}  // namespace twb
