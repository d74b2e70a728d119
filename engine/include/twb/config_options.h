// The option table: one row per RunConfig key with its type, default, range, the model families that
// use it, its group, its label in the config form and its help text. The JSON reader and writer, the
// range checks of RunConfig::validate(), `twb keys` and `twb train --help`, the key list of twb(1) and
// the bash completion (packaging/config_keys.cpp), and the GUI's config form all read it, so a key is
// described once: its field in config.h (type and default) and its row in core/run/config_options.cpp
// (the build fails when a field has no row). Checks that join several keys stay in validate().
// Public API; no torch.
#pragma once
#include "twb/config.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace twb {

/// What a key holds: a whole number (int), a whole number of at least 0 (64-bit), a number, true or
/// false, text, or one of a choice's spellings (choices.h).
enum class OptionType { Integer, Unsigned, Number, Bool, Text, Choice };
/// The model families that use a key.
enum class OptionFamilies { Both, Decoder, EncoderDecoder };
/// The groups, in the order the form and the man page show them.
enum class OptionGroup { Data, Model, Architecture, Optimisation, Evaluation, Runtime };

/// One end of a numeric key's range; open = the value itself is outside.
struct OptionBound {
    double value = 0;
    bool open = false;
};

struct ConfigOption {
    std::string key;  // the config.json / --set name, e.g. "n_layer"
    OptionType type = OptionType::Integer;
    OptionGroup group = OptionGroup::Model;
    OptionFamilies families = OptionFamilies::Both;
    std::optional<OptionBound> min, max;  // numeric keys; none = unbounded on that side
    std::string zero;                     // what 0 stands for ("4 * n_embd", "off"); "" = 0 is a plain value
    std::string label;                    // the config form's label ("Layers"); "" = the form does not show it
    std::string help;                     // what the key does, in a sentence or two
    std::vector<std::string> choices;     // Choice: its spellings; Bool: true, false; Text: suggestions
    bool shapes_model = false;            // the model's tensors or maths depend on it: --resume cannot change it

    /// The key's value in c as config.json holds it.
    nlohmann::json value(const RunConfig& c) const { return get_(c); }
    /// The value of RunConfig{} (the struct's default, which is the one place defaults are written).
    nlohmann::json default_value() const { return get_(RunConfig{}); }
    /// Sets the key from JSON, strictly: the JSON type must be the key's (2.7 is no integer, "yes" no
    /// bool, a spelling must be one of the choices); ConfigError naming where and the key. Ranges are
    /// validate()'s.
    void read(RunConfig& c, const nlohmann::json& v, const std::string& where) const { set_(c, v, where, key); }
    bool applies_to(ModelKind kind) const;
    /// Why c's value of the key does nothing in a run of c's model kind ("max_epochs is for encoder-decoder
    /// runs (model_kind=encoder_decoder); this run is a decoder LM"), or "" when the key applies or holds its
    /// default (which undoes a preset of the other family: best_by=loss after multi30k).
    std::string family_problem(const RunConfig& c) const;
    /// The range in words: "between 1 and 128", "at least 0 and below 1", "0 (4 * n_embd) or between 1
    /// and 1048576"; "" when the key has none.
    std::string range_text() const;
    /// "n_layer must be between 1 and 128 (got 0)" when c's value is out of range, else "".
    std::string range_problem(const RunConfig& c) const;
    /// "integer", "unsigned", "number", "bool", "text" or "choice".
    std::string type_name() const;

    // Filled by the table (core/run/config_options.cpp).
    nlohmann::json (*get_)(const RunConfig&) = nullptr;
    void (*set_)(RunConfig&, const nlohmann::json&, const std::string& where, const std::string& key) = nullptr;
};

/// Every key, grouped (data, model, architecture, optimisation, evaluation, runtime), in a stable order.
const std::vector<ConfigOption>& config_options();
/// The row of a key, or nullptr.
const ConfigOption* find_config_option(const std::string& key);

/// "data", "model", "architecture", "optimisation", "evaluation", "runtime".
std::string to_string(OptionGroup g);
/// "both", "decoder", "encoder_decoder".
std::string to_string(OptionFamilies f);

}  // namespace twb
