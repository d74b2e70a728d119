// twb-config-keys: prints every run-config key from the option table (twb/config_options.h) as
// "key<TAB>default<TAB>choices<TAB>type<TAB>range<TAB>families<TAB>help", one a line, for the man page and
// the bash completion that the build generates (packaging/CMakeLists.txt). Not installed. Choices are
// a choice key's spellings, true and false for a bool, the suggestions of a text key (device); families
// is both, decoder or encoder_decoder. No key name is typed here.
#include "twb/config_options.h"

#include <cstdio>
#include <string>

namespace {
std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : " ") + n;
    return s;
}
}  // namespace

int main() {
    for (const auto& o : twb::config_options()) {
        const auto v = o.default_value();
        const std::string shown = v.is_string() ? v.get<std::string>() : v.dump();
        std::printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.key.c_str(), shown.c_str(), joined(o.choices).c_str(),
                    o.type_name().c_str(), o.range_text().c_str(), twb::to_string(o.families).c_str(), o.help.c_str());
    }
    return 0;
}
