// How long the attention viewer takes at growing prompt lengths, up to 512 tokens: the engine's
// capture and the head scores (the viewer's worker thread; a 6x6x384 model with block_size 512, random
// weights: the time does not depend on training), rollout, and drawing on the UI thread (the all-heads
// grid and the large heatmap, replotted immediately, offscreen).
// Usage: bench_attention_view [threads]   (run with QT_QPA_PLATFORM=offscreen)
#include "nn/analysis/attention_capture.h"
#include "nn/device.h"
#include "nn/models/model.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/Heatmap.h"

#include <qcustomplot.h>
#include <QApplication>
#include <chrono>
#include <cstdio>

using Clock = std::chrono::steady_clock;
static double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    twb::nn::apply_threads(threads);
    twb::RunConfig c = twb::preset_config("baby-gpt");
    c.vocab_size = 65;
    c.block_size = 512;
    torch::manual_seed(1);
    twb::nn::GPT model(c);
    model->eval();
    Heatmap heat;
    heat.resize(900, 700);
    HeadGrid grid;
    std::printf("model %dx%dx%d, %d threads\n", int(c.n_layer), int(c.n_head), int(c.n_embd), threads);
    std::printf("%6s %12s %12s %12s %12s %12s\n", "tokens", "capture ms", "scores ms", "rollout ms", "grid ms",
                "heatmap ms");
    for (int T : {64, 128, 256, 512}) {
        std::vector<int32_t> ids(static_cast<size_t>(T));
        for (int i = 0; i < T; ++i)
            ids[static_cast<size_t>(i)] = (i * 7) % 65;
        twb::nn::capture_attention_ids(model, ids, torch::kCPU);  // warm-up
        auto t = Clock::now();
        auto cap = twb::nn::capture_attention_ids(model, ids, torch::kCPU);
        const double capMs = ms_since(t);
        for (int i = 0; i < T; ++i)
            cap.tokens.push_back(std::string(1, char('a' + i % 26)));
        t = Clock::now();
        const auto s = twb::head_scores(cap);
        const double scoreMs = ms_since(t);
        t = Clock::now();
        const auto roll = twb::attention_rollout(cap, cap.layers - 1);
        const double rollMs = ms_since(t);
        t = Clock::now();
        grid.setCapture(cap, s.entropy, "entropy");
        grid.resize(grid.sizeHint());
        const QImage gi = grid.grab().toImage();
        const double gridMs = ms_since(t);
        std::vector<float> m(cap.weights.begin(), cap.weights.begin() + static_cast<long>(T) * T);
        QStringList lab;
        for (auto& tok : cap.tokens)
            lab << QString::fromStdString(tok);
        t = Clock::now();
        heat.setMatrix(T, T, m, lab, lab, "query", "key", 0, 1);
        heat.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage hi = heat.grab().toImage();
        const double heatMs = ms_since(t);
        std::printf("%6d %12.1f %12.1f %12.1f %12.1f %12.1f\n", T, capMs, scoreMs, rollMs, gridMs, heatMs);
        (void)gi;
        (void)hi;
        (void)roll;
    }
    return 0;
}
