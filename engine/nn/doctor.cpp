// Runtime facts. The BLAS in use is read from the process's own memory map after a matmul has run,
// so it reports what is loaded, not what is installed.
#include "twb/doctor.h"

#include "core/tokenizers/tokenizer.h"
#include "core/util/cuda_driver.h"
#include "nn/decoding/fast_decode.h"
#include "nn/device.h"
#include "nn/models/attention.h"
#include "nn/models/fused_cpu.h"
#include "twb/config_options.h"
#include "twb/distributed.h"
#include "twb/errors.h"
#include "twb/process.h"

#include <torch/torch.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace twb {

namespace {

/// The GPUs the driver lists, a line each.
std::vector<std::string> gpu_lines(int count) {
    std::vector<std::string> lines;
    for (int i = 0; i < count; ++i) {
        const CudaDeviceInfo g = cuda_device_info(i);
        char b[256];
        if (g.ok)
            std::snprintf(b, sizeof b, "cuda:%d %s, %.1f GiB, compute capability %d.%d", i, g.name.c_str(),
                          static_cast<double>(g.memory) / (1024.0 * 1024.0 * 1024.0), g.major, g.minor);
        else
            std::snprintf(b, sizeof b, "cuda:%d (%s)", i, g.error.c_str());
        lines.push_back(b);
    }
    return lines;
}

/// The BLAS the process has loaded (after one matmul has run), whether it is the slow reference one,
/// and with measure, the sgemm speed of a few 512x512 products.
void read_blas(DoctorReport& r, bool measure) {
    auto a = torch::randn({512, 512}), b = torch::randn({512, 512});
    auto c = torch::mm(a, b);
    if (measure) {
        const int reps = 20;
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i)
            c = torch::mm(a, b);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.sgemm_gflops = 2.0 * 512 * 512 * 512 * reps / s / 1e9;
    }
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const auto pos = line.find('/');
        if (pos == std::string::npos)
            continue;
        const std::string path = line.substr(pos);
        if (path.find("libblas") != std::string::npos || path.find("libopenblas") != std::string::npos ||
            path.find("libmkl") != std::string::npos || path.find("libblis") != std::string::npos) {
            r.blas_library = path;
            break;
        }
    }
    // PyPI's wheel links MKL statically into libtorch_cpu: no BLAS library in the map, and no slow one.
    const bool mkl_inside = r.blas_library.empty() && at::hasMKL();
    if (mkl_inside)
        r.blas_library = "MKL (linked into libtorch)";
    else if (r.blas_library.empty())
        r.blas_library = "(none found in the process map)";
    r.reference_blas = !mkl_inside && r.blas_library.find("openblas") == std::string::npos &&
                       r.blas_library.find("mkl") == std::string::npos &&
                       r.blas_library.find("blis") == std::string::npos;
    if (r.reference_blas)
        r.warnings.push_back(
            "the reference BLAS is in use: training runs about 17x slower. Install "
            "libopenblas0-openmp (sudo apt-get install libopenblas0-openmp)");
}

}  // namespace

DoctorReport run_doctor(int threads, bool measure) {
    DoctorReport r;
    r.torch_version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                      std::to_string(TORCH_VERSION_PATCH);
    RunConfig asked;  // the option table's range (0-1024), then what this machine can serve
    asked.threads = threads;
    if (const std::string problem = find_config_option("threads")->range_problem(asked); !problem.empty())
        throw ConfigError(problem);
    if (const std::string warning = nn::check_training_threads(threads); !warning.empty())
        r.warnings.push_back(warning.substr(std::string("warning: ").size()));
    r.threads = nn::apply_threads(threads);
    r.cuda_available = torch::cuda::is_available();
    r.device = r.cuda_available ? "cuda" : "cpu";
    r.mkldnn = at::hasMKLDNN();
    try {
        r.cpu_bf16_switch = cpu_bf16_switch();
        const PrecisionChoice p = nn::resolve_precision(DType::Auto, nn::resolve_device("auto"));
        r.precision = to_string(p.dtype);
        r.precision_reason = p.reason;
    } catch (const std::exception& e) {
        r.cpu_bf16_switch = e.what();
        r.precision = "float32";
        r.precision_reason = "auto: TWB_CPU_BF16 is not understood";
        r.warnings.push_back(e.what());
    }
#ifdef TWB_TORCH_CUDA
    r.cuda_built = true;
    r.cuda_version = TWB_TORCH_CUDA;
#endif
    r.cuda_devices = static_cast<int>(torch::cuda::device_count());
    r.gpus = gpu_lines(r.cuda_devices);
    r.attention_kernel = nn::attention_kernel_name();
    // Each line fits Help > About's width at 1280x720 (about 75 characters after the label).
    r.fused_kernels = nn::fused_cpu_enabled() ? "on for bf16 training (GELU, softmax, LayerNorm; TWB_FUSED_CPU=0: off)"
                      : nn::fused_cpu_supported() ? "off: TWB_FUSED_CPU=0 (libtorch's ops)"
                                                  : "off: this CPU has no AVX-512 BF16 (libtorch's ops)";
    r.decode_weights = cpu_has_avx2_fma() ? "bfloat16 for decode_weights=auto (AVX2+FMA gemv)"
                                          : "float32 for decode_weights=auto (this CPU lacks AVX2+FMA)";
    for (const auto& b : distributed_backends())
        r.distributed_backends += (r.distributed_backends.empty() ? "" : ", ") + b;
    read_blas(r, measure);
    r.sentencepiece = spm_module_path();
    if (r.sentencepiece.rfind("not loaded", 0) == 0)
        r.warnings.push_back("sentencepiece: " + r.sentencepiece);
    return r;
}

std::string format_doctor(const DoctorReport& r) {
    std::ostringstream s;
    s << "libtorch        " << r.torch_version << (r.mkldnn ? " (oneDNN available)" : "") << "\n";
    s << "sentencepiece   " << r.sentencepiece << "\n";
    s << "BLAS            " << r.blas_library << (r.reference_blas ? "  <- reference BLAS, slow" : "") << "\n";
    s << "threads         " << r.threads << "\n";
    s << "CUDA            "
      << (r.cuda_built ? "built with CUDA " + r.cuda_version : std::string("not built with CUDA (CPU-only libtorch)"))
      << ", " << r.cuda_devices << " device(s) seen\n";
    s << "device          " << r.device << (r.cuda_available ? "" : " (no CUDA device)") << "\n";
    for (const auto& g : r.gpus)
        s << "GPU             " << g << "\n";
    s << "precision       " << r.precision << " for dtype=auto ("
      << r.precision_reason.substr(r.precision_reason.find(':') + 2) << ")\n";
    s << "TWB_CPU_BF16    " << r.cpu_bf16_switch
      << " (dtype=auto on a CPU: 1 = bf16 as if native, 0 = float32, auto = flags)\n";
    s << "attention       " << r.attention_kernel
      << (r.attention_kernel == "sdpa"
              ? " (scaled_dot_product_attention; explicit softmax when weights are shown and for bf16 on the CPU)"
              : " (matmul + softmax)")
      << "\n";
    s << "fused kernels   " << r.fused_kernels << "\n";
    s << "decoding        " << r.decode_weights << "; one sequence on the CPU\n";
    s << "OpenMP waiting  " << openmp_wait_policy() << "\n";
    s << "multi-process   "
      << (r.distributed_backends.empty() ? "none (install libgloo-dev and rebuild)" : r.distributed_backends) << "\n";
    if (r.sgemm_gflops > 0) {
        char b[64];
        std::snprintf(b, sizeof b, "%.1f GFLOP/s", r.sgemm_gflops);
        s << "fp32 matmul     " << b << " (512x512, " << r.threads << " threads)\n";
    }
    for (auto& w : r.warnings)
        s << "warning: " << w << "\n";
    return s.str();
}

}  // namespace twb
