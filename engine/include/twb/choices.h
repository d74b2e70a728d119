// Every fixed choice of the engine as an enum with its spelling in one place: position kind, learning
// rate schedule, dtype, device kind, tokenizer kind, feed-forward activation, norm kind and norm position. Config
// files, `--set`, the CLI's option checks and the GUI's combo boxes all take the names from here, so a choice is never
// retyped in a layer. Public API; no torch.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace twb {

enum class Position { Learned, Sinusoidal, Rotary };
/// Noam: Vaswani et al.'s schedule exactly, learning_rate * n_embd^-0.5 * min(s^-0.5, s * warmup^-1.5).
enum class Schedule { Constant, Cosine, InverseSqrt, Noam };
/// Precision: auto (bf16 mixed precision where the hardware does bf16 natively, float32 elsewhere; see
/// precision.h), float32, or bfloat16 (autocast matmuls, fp32 master weights).
enum class DType { Auto, Float32, BFloat16 };
enum class DeviceKind { Auto, Cpu, Cuda };
enum class TokenizerKind { Char, Byte, Word, Bpe, Unigram, ByteBpe };
/// The feed-forward activation: exact (erf) GELU, GELU's tanh approximation (GPT-2's gelu_new), ReLU, SiLU
/// (x * sigmoid(x), Marian's "swish").
enum class Activation { Gelu, GeluTanh, Relu, Silu };
/// LayerNorm ((x - mean) / sqrt(var + eps) * weight + bias) or RMSNorm (x / sqrt(mean(x^2) + eps) * weight).
enum class NormKind { LayerNorm, RmsNorm };
/// Pre-norm (GPT-2: x + sublayer(norm(x))) or post-norm (Vaswani et al.: norm(x + sublayer(x))).
enum class NormPosition { Pre, Post };
/// How the decoder LM cuts training sequences: nanoGPT's continuous token stream, or one document
/// (<bos> … <eos>) per sequence, padded (needs a dataset prepared with --documents).
enum class Sequences { Stream, Documents };
/// The model family: the decoder LM (GPT) or the encoder-decoder translation model (Vaswani et al.).
enum class ModelKind { Decoder, EncoderDecoder };
/// Which evaluation names the best checkpoint: the lowest validation loss or the highest validation BLEU.
enum class BestBy { Loss, Bleu };

/// The spelling of a choice ("rotary", "inverse_sqrt", "bfloat16", "cuda", "bpe").
std::string to_string(Position v);
std::string to_string(Schedule v);
std::string to_string(DType v);
std::string to_string(DeviceKind v);
std::string to_string(TokenizerKind v);
std::string to_string(Activation v);
std::string to_string(NormKind v);
std::string to_string(NormPosition v);
std::string to_string(Sequences v);
std::string to_string(ModelKind v);
std::string to_string(BestBy v);

/// All spellings of a choice, in the order the GUI lists them.
template <class E>
std::vector<std::string> choice_names();

/// Parses a spelling; throws ConfigError naming what (e.g. "position") and listing the valid names.
template <class E>
E parse_choice(const std::string& text, const std::string& what);

/// A device as configured: auto, cpu, cuda or cuda:N (index -1 = the default device).
struct DeviceChoice {
    DeviceKind kind = DeviceKind::Auto;
    int index = -1;
};
/// "auto" | "cpu" | "cuda" | "cuda:N"; throws ConfigError otherwise.
DeviceChoice parse_device(const std::string& text);
std::string to_string(const DeviceChoice& d);

// JSON as the spelling (config.json, meta.json); reading an unknown spelling throws ConfigError.
void to_json(nlohmann::json& j, Position v);
void from_json(const nlohmann::json& j, Position& v);
void to_json(nlohmann::json& j, Schedule v);
void from_json(const nlohmann::json& j, Schedule& v);
void to_json(nlohmann::json& j, DType v);
void from_json(const nlohmann::json& j, DType& v);
void to_json(nlohmann::json& j, TokenizerKind v);
void from_json(const nlohmann::json& j, TokenizerKind& v);
void to_json(nlohmann::json& j, Activation v);
void from_json(const nlohmann::json& j, Activation& v);
void to_json(nlohmann::json& j, NormKind v);
void from_json(const nlohmann::json& j, NormKind& v);
void to_json(nlohmann::json& j, NormPosition v);
void from_json(const nlohmann::json& j, NormPosition& v);
void to_json(nlohmann::json& j, Sequences v);
void from_json(const nlohmann::json& j, Sequences& v);
void to_json(nlohmann::json& j, ModelKind v);
void from_json(const nlohmann::json& j, ModelKind& v);
void to_json(nlohmann::json& j, BestBy v);
void from_json(const nlohmann::json& j, BestBy& v);

}  // namespace twb
