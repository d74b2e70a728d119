// The geometry of a token-embedding matrix (V, C) for the embedding explorer: a text's mean row,
// cosine similarity against every row, and the top two principal components of a set of rows. All in
// float64 on the CPU (the matrices are small and the explorer wants exact figures); no model, no
// tokenizer: ModelSession picks the rows and names the tokens.
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace twb::nn {

/// The mean of the rows `ids` of wte (V, C), as a float64 vector (C). ids must be valid and non-empty.
torch::Tensor mean_embedding(const torch::Tensor& wte, const std::vector<int32_t>& ids);

/// Cosine similarity of v (C) with every row of wte (V, C): (V) float64. A zero vector has similarity
/// 0 with everything (rather than NaN).
torch::Tensor cosine_to_rows(const torch::Tensor& wte, const torch::Tensor& v);

/// Cosine similarity of two vectors (0 when either is zero).
double cosine(const torch::Tensor& a, const torch::Tensor& b);

/// The points (N, C) on the top two principal components of their centred rows.
struct Pca2 {
    torch::Tensor coords;          // (N, 2) float64
    double explained[2] = {0, 0};  // share of the total variance along each component
};
/// Through the SVD of the centred rows; each component's sign is fixed so that its largest entry (in
/// embedding space) is positive. N >= 2 and C >= 2; a component with no variance has zeros.
Pca2 pca_2d(const torch::Tensor& rows);

}  // namespace twb::nn
