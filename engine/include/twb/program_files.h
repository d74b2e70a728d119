// Where the installation's other files are (the sentencepiece module, twb-torch), found from the running
// executable, so a build tree and an installation unpacked anywhere both work. Public API; no torch.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// The folder of the running executable (/proc/self/exe's); empty when unknown.
std::filesystem::path executable_dir();

/// Where a file the installation keeps beside its programs may be, in order: this executable's folder
/// (the build tree's bin/), bin/ beside it (tests in a sibling folder), the module folder relative to it
/// (an installation unpacked anywhere: ../lib/<multiarch>/transformer-workbench), the configured one.
std::vector<std::filesystem::path> program_file_candidates(const std::string& name);
/// The first of those that exists; empty when none does.
std::filesystem::path find_program_file(const std::string& name);

}  // namespace twb
