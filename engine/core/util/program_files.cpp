// Where the installation's other files are (program_files.h).
#include "twb/program_files.h"

#ifndef TWB_MODULE_INSTALL_DIR
#define TWB_MODULE_INSTALL_DIR "/usr/local/lib/transformer-workbench"
#endif
#ifndef TWB_MODULE_RELATIVE_DIR  // the module folder relative to the executables' (../lib/<multiarch>/...)
#define TWB_MODULE_RELATIVE_DIR "../lib/transformer-workbench"
#endif

namespace twb {

std::filesystem::path executable_dir() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

std::vector<std::filesystem::path> program_file_candidates(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = executable_dir();
    return {dir / name, dir / ".." / "bin" / name, dir / TWB_MODULE_RELATIVE_DIR / name,
            fs::path(TWB_MODULE_INSTALL_DIR) / name};
}

std::filesystem::path find_program_file(const std::string& name) {
    for (const auto& p : program_file_candidates(name)) {
        std::error_code ec;
        if (std::filesystem::exists(p, ec))
            return p;
    }
    return {};
}

}  // namespace twb
