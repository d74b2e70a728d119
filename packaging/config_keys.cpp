// twb-config-keys: prints every run-config key as "key<TAB>default<TAB>choices", one a line, for the
// man page and the bash completion that the build generates (packaging/CMakeLists.txt). Not installed.
// Choices come from the engine's own lists: a string key whose default is a spelling of one of the
// choice enums takes that enum's names, a boolean key takes true and false. No key name is typed here.
#include "twb/choices.h"
#include "twb/config.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {
std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : " ") + n;
    return s;
}

std::string choices_for(const nlohmann::json& value) {
    if (value.is_boolean())
        return "true false";
    if (!value.is_string() || value.get<std::string>().empty())
        return "";
    const std::vector<std::vector<std::string>> lists = {
        twb::choice_names<twb::Position>(),      twb::choice_names<twb::Schedule>(),
        twb::choice_names<twb::DType>(),         twb::choice_names<twb::DeviceKind>(),
        twb::choice_names<twb::TokenizerKind>(), twb::choice_names<twb::Activation>(),
        twb::choice_names<twb::NormKind>(),      twb::choice_names<twb::NormPosition>(),
        twb::choice_names<twb::Sequences>(),     twb::choice_names<twb::ModelKind>(),
        twb::choice_names<twb::BestBy>()};
    for (const auto& names : lists)
        for (const auto& n : names)
            if (n == value.get<std::string>())
                return joined(names);
    return "";
}
}  // namespace

int main() {
    const nlohmann::json defaults = twb::RunConfig{};
    for (const auto& key : twb::RunConfig::keys()) {
        const auto& v = defaults.at(key);
        const std::string shown = v.is_string() ? v.get<std::string>() : v.dump();
        std::printf("%s\t%s\t%s\n", key.c_str(), shown.c_str(), choices_for(v).c_str());
    }
    return 0;
}
