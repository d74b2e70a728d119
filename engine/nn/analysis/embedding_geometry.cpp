// Embedding-matrix geometry for the explorer: mean rows, cosine similarities, a 2-D PCA.
#include "nn/analysis/embedding_geometry.h"

#include <algorithm>

namespace twb::nn {

namespace {
torch::Tensor as_f64(const torch::Tensor& t) {
    return t.detach().to(torch::kCPU, torch::kFloat64);
}
constexpr double kTiny = 1e-300;  // below this a norm is zero
}  // namespace

torch::Tensor mean_embedding(const torch::Tensor& wte, const std::vector<int32_t>& ids) {
    torch::NoGradGuard ng;
    std::vector<int64_t> idx(ids.begin(), ids.end());
    const auto rows = as_f64(wte).index_select(0, torch::tensor(idx, torch::kLong));  // (n, C)
    return rows.mean(0);                                                              // (C)
}

torch::Tensor cosine_to_rows(const torch::Tensor& wte, const torch::Tensor& v) {
    torch::NoGradGuard ng;
    const auto w = as_f64(wte);                                          // (V, C)
    const auto q = as_f64(v);                                            // (C)
    const auto dots = w.matmul(q);                                       // (V)
    const auto norms = (w * w).sum(1).sqrt() * q.norm().item<double>();  // (V)
    return torch::where(norms > kTiny, dots / norms.clamp_min(kTiny), torch::zeros_like(dots));
}

double cosine(const torch::Tensor& a, const torch::Tensor& b) {
    torch::NoGradGuard ng;
    const auto x = as_f64(a), y = as_f64(b);
    const double n = x.norm().item<double>() * y.norm().item<double>();
    return n > kTiny ? x.dot(y).item<double>() / n : 0.0;
}

Pca2 pca_2d(const torch::Tensor& rows) {
    torch::NoGradGuard ng;
    TORCH_CHECK(rows.dim() == 2 && rows.size(0) >= 2 && rows.size(1) >= 2, "pca_2d needs at least 2 x 2 rows");
    const auto x = as_f64(rows);
    const auto centred = x - x.mean(0, /*keepdim=*/true);  // (N, C)
    const auto svd = torch::linalg_svd(centred, /*full_matrices=*/false);
    const auto s = std::get<1>(svd);                    // (min(N, C)) descending
    auto vh = std::get<2>(svd).slice(0, 0, 2).clone();  // (2, C): the components, one per row
    for (int64_t j = 0; j < 2; ++j) {
        const auto row = vh[j];
        const int64_t at = row.abs().argmax().item<int64_t>();
        if (row[at].item<double>() < 0)
            vh[j].mul_(-1);
    }
    Pca2 r;
    r.coords = centred.matmul(vh.t());  // (N, 2)
    const double total = s.pow(2).sum().item<double>();
    for (int64_t j = 0; j < 2; ++j)
        r.explained[j] = total > 0 && j < s.size(0) ? s[j].pow(2).item<double>() / total : 0.0;
    return r;
}

}  // namespace twb::nn
