// Facts about the runtime for `twb doctor` and the GUI's About box: versions, the BLAS library really
// loaded, threads, device, and a quick matmul speed figure. A slow machine gets explained. Public API.
#pragma once
#include <string>
#include <vector>

namespace twb {

struct DoctorReport {
    std::string torch_version;
    std::string sentencepiece;    // module path or why it failed to load
    std::string blas_library;     // resolved path of the BLAS in use
    bool reference_blas = false;  // the slow reference BLAS is in use
    int threads = 0;
    std::string device;
    bool cuda_available = false;
    bool cuda_built = false;           // this libtorch was built with CUDA (PyPI's wheel; not Debian's 1.13)
    std::string cuda_version;          // the CUDA toolkit it was compiled against, when cuda_built
    int cuda_devices = 0;              // CUDA devices seen now (0 on a machine without a GPU or driver)
    std::string attention_kernel;      // "sdpa" (fused, libtorch >= 2) or "explicit" (matmul + softmax)
    std::string fused_kernels;         // the fused bf16 CPU training kernels: "on ..." or "off: why"
    std::string decode_weights;        // what decode_weights = auto streams per token on the CPU, and why
    std::string distributed_backends;  // e.g. "gloo, nccl"; empty when the build has none
    bool mkldnn = false;
    std::string precision;          // what dtype = auto trains in on the default device: float32 | bfloat16
    std::string precision_reason;   // and why
    std::string cpu_bf16_switch;    // TWB_CPU_BF16 as read: auto | 0 | 1 (or what is wrong with it)
    std::vector<std::string> gpus;  // one line per CUDA device: "cuda:0 NVIDIA H200, 139.8 GiB, compute capability 9.0"
    double sgemm_gflops = 0;        // fp32 512x512 matmul on the configured threads
    std::vector<std::string> warnings;
};

/// Gathers the facts; threads as RunConfig (0 = all cores). measure=false skips the matmul timing.
DoctorReport run_doctor(int threads = 0, bool measure = true);

/// Multi-line human-readable text of a report.
std::string format_doctor(const DoctorReport& r);

}  // namespace twb
