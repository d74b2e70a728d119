// What the embedding explorer shows of a model's token embeddings (the rows of transformer.wte.weight):
// a token's or a text's nearest tokens by cosine similarity, the similarity of two tokens or texts,
// and a 2-D map (the top two principal components) of the most frequent tokens. A text that encodes to
// several tokens stands for the mean of their embedding rows. ModelSession computes them (session.h);
// these are the plain results. It does not look at positions or at any layer past the embedding.
// Public API.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace twb {

/// One token and how close its embedding is to a query's.
struct TokenNeighbour {
    int id = 0;
    std::string text;       // the token as the tokenizer shows it
    double similarity = 0;  // cosine similarity, in [-1, 1]
};

/// The nearest tokens of a word or text: its tokens' mean embedding against every row.
struct NeighbourResult {
    std::string query;
    std::vector<int32_t> query_ids;          // the query's tokens (left out of the neighbours)
    std::vector<TokenNeighbour> neighbours;  // most similar first
};

/// Cosine similarity of two texts, each the mean embedding of its tokens.
struct SimilarityResult {
    std::vector<int32_t> a_ids, b_ids;
    double similarity = 0;
};

/// One token on the embedding map.
struct EmbeddingPoint {
    int id = 0;
    std::string text;
    uint64_t count = 0;   // occurrences in the run's dataset (train + val); 0 when unknown
    double x = 0, y = 0;  // first and second principal component
};

/// The N most frequent tokens projected on the top two principal components of their centred
/// embedding rows. Components are defined up to sign; the sign is fixed so that each component's
/// largest entry (in embedding space) is positive, so the same weights always draw the same map.
struct EmbeddingMap {
    std::vector<EmbeddingPoint> points;  // most frequent first
    double explained[2] = {0, 0};        // share of the points' variance along each component
    bool by_frequency = false;           // false: the run's dataset was not readable, first N ids
    std::string source;                  // how the tokens were chosen, in a sentence
    std::string dataset;                 // by_frequency: the run's dataset folder they were counted in
};

}  // namespace twb

namespace twb {

/// The map as CSV: a header `id,token,count,x,y` and one line per point, the token quoted (RFC 4180),
/// coordinates with 9 significant digits. `twb embeddings --map` and the GUI's export write this.
std::string embedding_map_csv(const EmbeddingMap& map);

}  // namespace twb
