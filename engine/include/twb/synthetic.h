// Built-in synthetic tasks whose attention patterns are easy to read, one example per line, made
// from a seed: n-digit addition ("123+456=579", optionally with every number written least
// significant digit first, which lets a left-to-right model carry), sequence copy ("cabd>cabd"),
// reversal ("cabd>dbac") and sorting ("cabd>abcd"); and instructions for a chat finetune (twb/chat.h), one
// JSON record a line: {"instruction": "reverse: cabd", "output": "dbac"}, the operation one of reverse,
// sort, upper, copy. Deterministic for a given spec. Public API.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace twb {

struct SyntheticSpec {
    std::string task = "addition";  // addition | copy | reverse | sort | instructions
    int examples = 20000;
    int digits = 3;                       // addition: digits per operand (1..18)
    bool reversed_digits = false;         // addition: write operands and sum least significant digit first
    int min_length = 4, max_length = 10;  // copy/reverse/sort/instructions: sequence length range
    int alphabet = 10;                    // copy/reverse/sort/instructions: letters a.. (2..26)
    uint64_t seed = 1;
    /// Throws ConfigError naming the bad value.
    void validate() const;
};

std::vector<std::string> synthetic_tasks();
/// The whole task as text, one example per line ending in '\n'.
std::string generate_synthetic(const SyntheticSpec& spec);

}  // namespace twb
