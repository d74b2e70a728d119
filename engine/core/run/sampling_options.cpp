// SamplingOptions::validate: every decoding option's range, checked before a generation starts.
#include "twb/errors.h"
#include "twb/generation.h"

#include <cmath>
#include <string>

namespace twb {

const char* to_string(DecodeWeights w) {
    switch (w) {
        case DecodeWeights::Float32:
            return "float32";
        case DecodeWeights::BFloat16:
            return "bfloat16";
        case DecodeWeights::Auto:
            break;
    }
    return "auto";
}

DecodeWeights parse_decode_weights(const std::string& s) {
    for (auto w : {DecodeWeights::Auto, DecodeWeights::Float32, DecodeWeights::BFloat16})
        if (s == to_string(w))
            return w;
    throw ConfigError("decode weights must be auto, float32 or bfloat16, not '" + s + "'");
}

void SamplingOptions::validate() const {
    if (max_new_tokens < 0)
        throw ConfigError("max new tokens must not be negative");
    if (!(temperature >= 0 && std::isfinite(temperature)))
        throw ConfigError("temperature must be 0 (greedy) or a positive finite number, not " +
                          std::to_string(temperature));
    if (!(top_p > 0 && top_p <= 1))
        throw ConfigError("top-p must be in (0, 1], not " + std::to_string(top_p));
    if (top_k < 0)
        throw ConfigError("top-k must be 0 (off) or positive");
    if (!(repetition_penalty > 0 && std::isfinite(repetition_penalty)))
        throw ConfigError("repetition penalty must be a positive finite number (1 = off)");
    if (no_repeat_ngram < 0)
        throw ConfigError("no-repeat-ngram must be 0 (off) or positive");
    if (beam_width < 1 || beam_width > 64)
        throw ConfigError("beam width must be between 1 and 64 (got " + std::to_string(beam_width) + ")");
    if (!std::isfinite(length_penalty))
        throw ConfigError("length penalty must be a finite number (0 = none, 1 = per token)");
    if (num_samples < 1)
        throw ConfigError("number of samples must be at least 1");
    if (beam_width > 1 && num_samples > beam_width)
        throw ConfigError("beam search returns at most beam-width sequences; lower num_samples");
}

}  // namespace twb
