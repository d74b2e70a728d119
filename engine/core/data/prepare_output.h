// The output side of preparing a dataset, shared by prepare_dataset (prepare.cpp) and
// prepare_parallel (prepare_parallel.cpp): the checks on --out (replaced only when it is a prepared
// dataset, never when it holds an input), the temporary folder beside it that the work goes to, and the
// rename into place at the end, so an interrupted or failed preparation never leaves a half dataset.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace twb {

class Tokenizer;

/// A temporary folder removed on destruction unless kept (moved into place).
struct TempDir {
    std::filesystem::path path;
    bool keep = false;
    ~TempDir();
};

/// --out may be replaced only when it is recognisably a prepared dataset (its meta.json is one), and
/// never when an input lies inside it: --force must not delete a folder of notes or the corpus itself.
void check_output_folder(const std::filesystem::path& out, const std::vector<std::string>& inputs, bool overwrite);

/// Removes .NAME.tmp-PID-N folders whose process has ended (a Ctrl-C'd or killed prepare), folders of
/// the older .NAME.tmp-N naming untouched for a day, and a .NAME.old left by an interrupted replace.
void remove_stale_prepare_temporaries(const std::filesystem::path& out);

/// Checks the requested output folder, tidies old temporaries and creates tmp beside it; returns the
/// output folder as an absolute path. ConfigError/IoError with what to do.
std::filesystem::path begin_output(const std::filesystem::path& requested, const std::vector<std::string>& inputs,
                                   bool overwrite, TempDir& tmp);

/// Writes the tokenizer's files into tmp (a sentencepiece model once, as tokenizer.model).
void save_tokenizer_files(const Tokenizer& tok, const TempDir& tmp);

/// Stamps meta with its creation time, writes tmp/meta.json and moves tmp into place at out. IoError.
void finish_output(TempDir& tmp, const std::filesystem::path& out, nlohmann::json meta);

/// Renames tmp to out (replacing an existing prepared dataset there) and keeps it. IoError.
void move_into_place(TempDir& tmp, const std::filesystem::path& out);

}  // namespace twb
