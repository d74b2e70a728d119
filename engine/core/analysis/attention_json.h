// One capture as a JSON object and back: the part of the attention export format shared by a decoder
// LM's file and the three captures of an encoder-decoder's (attention_export.cpp).
#pragma once
#include "twb/attention.h"

#include <nlohmann/json.hpp>

#include <string>

namespace twb {

/// Writes kind, tokens, layers, heads, length, weights (and key_tokens, key_length for cross) into j.
void capture_to_json(const AttentionCapture& cap, nlohmann::json& j);
/// Reads them back (no "kind" = a decoder LM's); FormatError prefixed with where.
AttentionCapture capture_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace twb
