// Where a command may write a file: never onto or into what it reads, never into a run or a prepared
// dataset (their files are theirs: a checkpoint, config.json, meta.json), never over an existing file
// unless asked. One rule for every file output of `twb` and the GUI. Public API; no torch.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace twb {

/// Where an output (a file or a folder) may go: InputError when out is or lies inside one of inputs, or
/// lies inside a run folder (one holding checkpoints/) or a prepared dataset (one holding meta.json).
void check_output_place(const std::filesystem::path& out, const std::vector<std::filesystem::path>& inputs);

/// Checks an output file path before anything is written. InputError naming the problem and what to do
/// when out is empty, is or lies inside one of inputs (files or folders the command reads), lies inside a
/// run folder (one holding checkpoints/) or a prepared dataset (one holding meta.json), is a folder, a
/// symbolic link (dangling or not) or another file that is not regular (/dev/null, a pipe), or exists
/// while replace is false, or when its folder does not exist; IoError when that folder cannot be written.
void check_output_file(const std::filesystem::path& out, const std::vector<std::filesystem::path>& inputs,
                       bool replace);

/// Refuses (InputError) an output whose name leaves no room for the temporary written beside it first,
/// whose name is `extra` bytes longer (a file name holds at most 255): it was refused as an unwritable
/// folder ("File name too long").
void require_name_room(const std::filesystem::path& path, size_t extra);

}  // namespace twb
