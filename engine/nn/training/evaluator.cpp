// Evaluation loops.
#include "nn/training/evaluator.h"

#include "twb/errors.h"

#include "nn/training/batcher.h"

#include <ATen/autocast_mode.h>

namespace twb::nn {

void with_autocast(const torch::Device& device, bool bf16, const std::function<void()>& fn) {
    if (!bf16) {
        fn();
        return;
    }
    // libtorch 2.4 replaced the per-device setters (set_cpu_enabled, set_autocast_gpu_dtype, ...) with
    // ones taking the device type; the old ones are deprecated there.
    struct Guard {
        at::DeviceType type;
        explicit Guard(at::DeviceType t) : type(t) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
            at::autocast::set_autocast_dtype(type, at::kBFloat16);
            at::autocast::set_autocast_enabled(type, true);
#else
            if (type == at::kCPU) {
                at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
                at::autocast::set_cpu_enabled(true);
            } else {
                at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
                at::autocast::set_enabled(true);
            }
#endif
        }
        ~Guard() {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
            at::autocast::set_autocast_enabled(type, false);
#else
            if (type == at::kCPU)
                at::autocast::set_cpu_enabled(false);
            else
                at::autocast::set_enabled(false);
#endif
            at::autocast::clear_cache();
        }
    } guard(device.is_cpu() ? at::kCPU : at::kCUDA);
    fn();
}

torch::Tensor masked_cross_entropy(const torch::Tensor& logits, const torch::Tensor& targets,
                                   torch::nn::functional::CrossEntropyFuncOptions::reduction_t reduction,
                                   double label_smoothing) {
    return torch::nn::functional::cross_entropy(logits, targets,
                                                torch::nn::functional::CrossEntropyFuncOptions()
                                                    .ignore_index(kIgnoreIndex)
                                                    .reduction(reduction)
                                                    .label_smoothing(label_smoothing));
}

std::pair<int64_t, int64_t> masked_correct(const torch::Tensor& logits, const torch::Tensor& targets) {
    const auto real = targets.ne(kIgnoreIndex);  // padding (documents mode) is neither right nor wrong
    return {logits.argmax(-1).eq(targets).logical_and(real).sum().item<int64_t>(), real.sum().item<int64_t>()};
}

namespace {
struct EvalModeGuard {
    GPT& m;
    bool was;
    explicit EvalModeGuard(GPT& model) : m(model), was(model->is_training()) { m->eval(); }
    ~EvalModeGuard() { m->train(was); }
};

void accumulate(GPT& model, const torch::Tensor& x, const torch::Tensor& y, const torch::Device& device, bool bf16,
                double& lossSum, double& correct, int64_t& n) {
    with_autocast(device, bf16, [&] {
        auto logits = model->forward(x).to(torch::kFloat32);
        const int64_t V = logits.size(-1);
        auto flat = logits.view({-1, V});
        auto tgt = y.reshape({-1});
        lossSum += masked_cross_entropy(flat, tgt, torch::kSum).item<double>();
        const auto [right, real] = masked_correct(flat, tgt);
        correct += static_cast<double>(right);
        n += real;
    });
}
}  // namespace

SplitEval evaluate_random(GPT& model, const TokenFile& file, int batch_size, int iters, uint64_t seed,
                          const torch::Device& device, bool bf16, const DocumentSource* docs) {
    torch::NoGradGuard ng;
    EvalModeGuard eg(model);
    Batcher b = docs ? Batcher(file, *docs, model->config().block_size, batch_size, seed)
                     : Batcher(file, model->config().block_size, batch_size, seed);
    double lossSum = 0, correct = 0;
    int64_t n = 0;
    for (int i = 0; i < iters; ++i) {
        auto [x, y] = b.next(device);
        accumulate(model, x, y, device, bf16, lossSum, correct, n);
    }
    return {lossSum / static_cast<double>(n), correct / static_cast<double>(n), n};
}

SplitEval evaluate_sequential(GPT& model, const TokenFile& file, int batch_size, int64_t max_tokens,
                              const torch::Device& device, bool bf16) {
    torch::NoGradGuard ng;
    EvalModeGuard eg(model);
    const int64_t T = model->config().block_size;
    int64_t avail = static_cast<int64_t>(file.size()) - 1;
    if (max_tokens > 0)
        avail = std::min(avail, max_tokens);
    const int64_t blocks = avail / T;
    double lossSum = 0, correct = 0;
    int64_t n = 0;
    if (blocks == 0) {
        if (max_tokens > 0 && static_cast<int64_t>(file.size()) > T)
            throw InputError("max tokens " + std::to_string(max_tokens) + " is less than one block (block_size " +
                             std::to_string(T) + "); ask for at least " + std::to_string(T) +
                             " tokens, or 0 for the whole split");
        throw InputError("the evaluation split has " + std::to_string(file.size()) +
                         " tokens, fewer than block_size+1 = " + std::to_string(T + 1) +
                         "; evaluate on a larger split or text");
    }
    for (int64_t b0 = 0; b0 < blocks; b0 += batch_size) {
        const int64_t nb = std::min<int64_t>(batch_size, blocks - b0);
        auto buf = torch::empty({nb, T + 1}, torch::kInt64);
        for (int64_t i = 0; i < nb; ++i)
            file.copy_to(static_cast<uint64_t>((b0 + i) * T), static_cast<uint64_t>(T + 1),
                         buf.data_ptr<int64_t>() + i * (T + 1));
        auto x = buf.narrow(1, 0, T).contiguous().to(device), y = buf.narrow(1, 1, T).contiguous().to(device);
        accumulate(model, x, y, device, bf16, lossSum, correct, n);
    }
    return {lossSum / static_cast<double>(n), correct / static_cast<double>(n), n};
}

SplitEval evaluate_documents(GPT& model, const TokenFile& file, const DocumentSource& docs, int batch_size,
                             int64_t max_tokens, const torch::Device& device, bool bf16) {
    torch::NoGradGuard ng;
    EvalModeGuard eg(model);
    const Batcher b(file, docs, model->config().block_size, batch_size, 0);
    double lossSum = 0, correct = 0;
    int64_t n = 0;
    for (uint64_t first = 0; first < b.pieces() && (max_tokens <= 0 || n < max_tokens);
         first += static_cast<uint64_t>(batch_size)) {
        auto [x, y] = b.pieces_batch(first, static_cast<uint64_t>(batch_size), device);
        if (max_tokens > 0) {
            // At most max_tokens targets: those past it, in piece order, are not scored (a batch of whole
            // pieces scored ten times the --max-tokens asked for).
            const auto real = y != kIgnoreIndex;
            const auto upTo = real.flatten().cumsum(0).view_as(y);
            y = torch::where(real & (upTo > max_tokens - n), torch::full_like(y, kIgnoreIndex), y);
        }
        accumulate(model, x, y, device, bf16, lossSum, correct, n);
    }
    return {lossSum / static_cast<double>(n), correct / static_cast<double>(n), n};
}

std::vector<double> token_log_probs(GPT& model, const std::vector<int32_t>& ids, size_t from,
                                    const torch::Device& device, bool bf16) {
    torch::NoGradGuard ng;
    EvalModeGuard mode(model);
    const auto n = static_cast<int64_t>(ids.size());
    const int64_t block = model->config().block_size;
    const int64_t stride = std::max<int64_t>(1, block / 2);
    std::vector<double> out;
    if (from < 1)
        from = 1;
    int64_t scored = static_cast<int64_t>(from) - 1;  // positions up to here are done (or not wanted)
    for (int64_t begin = 0; scored < n - 1; begin += stride) {
        // The window ids[begin .. end) predicts ids[begin+1 .. end); it scores what is not scored yet.
        const int64_t end = std::min(n, begin + block + 1);
        if (end - 1 <= scored)
            continue;
        std::vector<int64_t> x(ids.begin() + begin, ids.begin() + end - 1);
        auto input = torch::tensor(x, torch::kInt64).unsqueeze(0).to(device);
        torch::Tensor logp;
        with_autocast(device, bf16, [&] {
            logp = torch::log_softmax(model->forward(input).to(torch::kFloat32)[0], -1).to(torch::kCPU);  // (T, V)
        });
        for (int64_t t = std::max(scored + 1, begin + 1); t < end; ++t)
            out.push_back(logp[t - begin - 1][ids[static_cast<size_t>(t)]].item<double>());
        scored = end - 1;
    }
    return out;
}

}  // namespace twb::nn
