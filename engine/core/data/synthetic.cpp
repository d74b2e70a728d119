#include "twb/synthetic.h"

#include "twb/errors.h"

#include <algorithm>
#include <random>

namespace twb {

namespace {
/// {"instruction": "OP: seq", "output": ...} for OP one of reverse, sort, upper, copy (JSON-safe: letters only).
std::string instruction_record(const std::string& seq, std::mt19937_64& rng) {
    static const char* ops[] = {"reverse", "sort", "upper", "copy"};
    const std::string op = ops[std::uniform_int_distribution<int>(0, 3)(rng)];
    std::string target = seq;
    if (op == "reverse")
        std::reverse(target.begin(), target.end());
    else if (op == "sort")
        std::sort(target.begin(), target.end());
    else if (op == "upper")
        for (char& c : target)
            c = static_cast<char>(c - 'a' + 'A');
    return "{\"instruction\": \"" + op + ": " + seq + "\", \"output\": \"" + target + "\"}\n";
}
}  // namespace

std::vector<std::string> synthetic_tasks() {
    return {"addition", "copy", "reverse", "sort", "instructions"};
}

void SyntheticSpec::validate() const {
    const auto tasks = synthetic_tasks();
    if (std::find(tasks.begin(), tasks.end(), task) == tasks.end())
        throw ConfigError("unknown synthetic task '" + task +
                          "'; choose addition, copy, reverse or sort (text), or instructions (JSON records)");
    if (examples < 1 || examples > 10000000)
        throw ConfigError("examples must be between 1 and 10,000,000");
    if (digits < 1 || digits > 18)
        throw ConfigError("digits must be between 1 and 18");
    if (min_length < 1 || max_length < min_length || max_length > 200)
        throw ConfigError("sequence lengths must satisfy 1 <= min_length <= max_length <= 200");
    if (alphabet < 2 || alphabet > 26)
        throw ConfigError("alphabet must be between 2 and 26 letters");
}

std::string generate_synthetic(const SyntheticSpec& s) {
    s.validate();
    std::mt19937_64 rng(s.seed);
    std::string out;
    auto number = [&](uint64_t v, int width) {
        std::string d = std::to_string(v);
        if (s.reversed_digits) {
            d = std::string(static_cast<size_t>(std::max(0, width - static_cast<int>(d.size()))), '0') + d;
            std::reverse(d.begin(), d.end());
        }
        return d;
    };
    uint64_t limit = 1;
    for (int i = 0; i < s.digits; ++i)
        limit *= 10;
    for (int i = 0; i < s.examples; ++i) {
        if (s.task == "addition") {
            std::uniform_int_distribution<uint64_t> d(0, limit - 1);
            const uint64_t a = d(rng), b = d(rng);
            // Reversed: fixed width so digit k of each number lines up with digit k of the sum.
            out += number(a, s.digits) + "+" + number(b, s.digits) + "=" + number(a + b, s.digits + 1) + "\n";
            continue;
        }
        std::uniform_int_distribution<int> len(s.min_length, s.max_length), letter(0, s.alphabet - 1);
        std::string seq(static_cast<size_t>(len(rng)), 'a');
        for (char& c : seq)
            c = static_cast<char>('a' + letter(rng));
        if (s.task == "instructions") {
            out += instruction_record(seq, rng);
            continue;
        }
        std::string target = seq;
        if (s.task == "reverse")
            std::reverse(target.begin(), target.end());
        else if (s.task == "sort")
            std::sort(target.begin(), target.end());
        out += seq + ">" + target + "\n";
    }
    return out;
}

}  // namespace twb
