#include "nn/analysis/position_view.h"

#include "nn/models/attention.h"
#include "nn/models/position_tables.h"

#include <cmath>

namespace twb::nn {

PositionTable viewer_position_table(const RunConfig& c, const torch::Tensor& learned_wpe, int64_t max_rows) {
    torch::NoGradGuard ng;
    PositionTable t;
    t.kind = c.position;
    t.rows = std::min<int64_t>(max_rows, c.block_size);
    torch::Tensor table;
    if (c.position == Position::Learned) {
        table = learned_wpe.slice(0, 0, t.rows);
    } else if (c.position == Position::Sinusoidal) {
        table = sinusoidal_table(t.rows, c.n_embd, c.sinusoid_halves);
    } else {
        const int64_t hd = c.head_dim();
        table = rotary_tables(t.rows, hd).first;  // cos(position * theta_i)
        for (int64_t i = 0; i < hd / 2; ++i)
            t.frequencies.push_back(static_cast<float>(std::pow(10000.0, -2.0 * static_cast<double>(i) / hd)));
    }
    table = table.to(torch::kCPU, torch::kFloat32).contiguous();
    t.cols = table.size(1);
    t.values.assign(table.data_ptr<float>(), table.data_ptr<float>() + table.numel());
    return t;
}

}  // namespace twb::nn
