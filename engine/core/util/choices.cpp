// The spellings of every enum choice, in one table per enum.
#include "twb/choices.h"

#include "twb/errors.h"

#include <utility>

namespace twb {

namespace {

template <class E>
struct Names;
template <>
struct Names<Position> {
    static constexpr std::pair<Position, const char*> items[] = {
        {Position::Learned, "learned"}, {Position::Sinusoidal, "sinusoidal"}, {Position::Rotary, "rotary"}};
};
template <>
struct Names<Schedule> {
    static constexpr std::pair<Schedule, const char*> items[] = {{Schedule::Cosine, "cosine"},
                                                                 {Schedule::Constant, "constant"},
                                                                 {Schedule::InverseSqrt, "inverse_sqrt"},
                                                                 {Schedule::Noam, "noam"}};
};
template <>
struct Names<DType> {
    static constexpr std::pair<DType, const char*> items[] = {
        {DType::Auto, "auto"}, {DType::Float32, "float32"}, {DType::BFloat16, "bfloat16"}};
};
template <>
struct Names<DeviceKind> {
    static constexpr std::pair<DeviceKind, const char*> items[] = {
        {DeviceKind::Auto, "auto"}, {DeviceKind::Cpu, "cpu"}, {DeviceKind::Cuda, "cuda"}};
};
template <>
struct Names<TokenizerKind> {
    static constexpr std::pair<TokenizerKind, const char*> items[] = {
        {TokenizerKind::Char, "char"}, {TokenizerKind::Byte, "byte"},       {TokenizerKind::Word, "word"},
        {TokenizerKind::Bpe, "bpe"},   {TokenizerKind::Unigram, "unigram"}, {TokenizerKind::ByteBpe, "bytebpe"}};
};
template <>
struct Names<Activation> {
    static constexpr std::pair<Activation, const char*> items[] = {{Activation::Gelu, "gelu"},
                                                                   {Activation::GeluTanh, "gelu_tanh"},
                                                                   {Activation::Relu, "relu"},
                                                                   {Activation::Silu, "silu"}};
};
template <>
struct Names<NormKind> {
    static constexpr std::pair<NormKind, const char*> items[] = {{NormKind::LayerNorm, "layernorm"},
                                                                 {NormKind::RmsNorm, "rmsnorm"}};
};
template <>
struct Names<NormPosition> {
    static constexpr std::pair<NormPosition, const char*> items[] = {{NormPosition::Pre, "pre"},
                                                                     {NormPosition::Post, "post"}};
};
template <>
struct Names<Sequences> {
    static constexpr std::pair<Sequences, const char*> items[] = {{Sequences::Stream, "stream"},
                                                                  {Sequences::Documents, "documents"}};
};
template <>
struct Names<ModelKind> {
    static constexpr std::pair<ModelKind, const char*> items[] = {{ModelKind::Decoder, "decoder"},
                                                                  {ModelKind::EncoderDecoder, "encoder_decoder"}};
};
template <>
struct Names<BestBy> {
    static constexpr std::pair<BestBy, const char*> items[] = {{BestBy::Loss, "loss"}, {BestBy::Bleu, "bleu"}};
};

template <class E>
std::string name_of(E v) {
    for (const auto& [e, n] : Names<E>::items)
        if (e == v)
            return n;
    return "?";
}

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return s;
}

}  // namespace

template <class E>
std::vector<std::string> choice_names() {
    std::vector<std::string> v;
    for (const auto& item : Names<E>::items)
        v.emplace_back(item.second);
    return v;
}

template <class E>
E parse_choice(const std::string& text, const std::string& what) {
    for (const auto& [e, n] : Names<E>::items)
        if (text == n)
            return e;
    throw ConfigError(what + " must be " + joined(choice_names<E>()) + " (got '" + text + "')");
}

#define TWB_CHOICE(E)                                                             \
    template std::vector<std::string> choice_names<E>();                          \
    template E parse_choice<E>(const std::string& text, const std::string& what); \
    std::string to_string(E v) {                                                  \
        return name_of(v);                                                        \
    }
TWB_CHOICE(Position)
TWB_CHOICE(Schedule)
TWB_CHOICE(DType)
TWB_CHOICE(DeviceKind)
TWB_CHOICE(TokenizerKind)
TWB_CHOICE(Activation)
TWB_CHOICE(NormKind)
TWB_CHOICE(NormPosition)
TWB_CHOICE(Sequences)
TWB_CHOICE(ModelKind)
TWB_CHOICE(BestBy)
#undef TWB_CHOICE

#define TWB_CHOICE_JSON(E, what)                                                  \
    void to_json(nlohmann::json& j, E v) {                                        \
        j = to_string(v);                                                         \
    }                                                                             \
    void from_json(const nlohmann::json& j, E& v) {                               \
        if (!j.is_string())                                                       \
            throw ConfigError(std::string(what) + " must be a string such as '" + \
                              to_string(Names<E>::items[0].first) + "'");         \
        v = parse_choice<E>(j.get<std::string>(), what);                          \
    }
TWB_CHOICE_JSON(Position, "position")
TWB_CHOICE_JSON(Schedule, "schedule")
TWB_CHOICE_JSON(DType, "dtype")
TWB_CHOICE_JSON(TokenizerKind, "tokenizer")
TWB_CHOICE_JSON(Activation, "activation")
TWB_CHOICE_JSON(NormKind, "norm")
TWB_CHOICE_JSON(NormPosition, "norm_position")
TWB_CHOICE_JSON(Sequences, "sequences")
TWB_CHOICE_JSON(ModelKind, "model_kind")
TWB_CHOICE_JSON(BestBy, "best_by")
#undef TWB_CHOICE_JSON

DeviceChoice parse_device(const std::string& text) {
    DeviceChoice d;
    const auto colon = text.find(':');
    d.kind = parse_choice<DeviceKind>(text.substr(0, colon), "device");
    if (colon == std::string::npos)
        return d;
    const std::string index = text.substr(colon + 1);
    const bool digits =
        !index.empty() && index.size() <= 4 && index.find_first_not_of("0123456789") == std::string::npos;
    if (d.kind != DeviceKind::Cuda || !digits)
        throw ConfigError("device must be auto, cpu, cuda or cuda:N with N a device number (got '" + text + "')");
    d.index = std::stoi(index);
    return d;
}

std::string to_string(const DeviceChoice& d) {
    return to_string(d.kind) + (d.index >= 0 ? ":" + std::to_string(d.index) : "");
}

}  // namespace twb
