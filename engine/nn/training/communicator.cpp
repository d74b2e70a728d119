// Communicator over c10d's TCPStore and ProcessGroupGloo (and NCCL on CUDA builds that have it).
// TWB_C10D_GLOO / TWB_C10D_NCCL are ours (engine/CMakeLists.txt): the wheel's torch target defines
// USE_C10D_GLOO and USE_C10D_NCCL for every consumer, whether or not the headers they need are here.
#include "nn/training/communicator.h"

#include "twb/errors.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef TWB_C10D_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef TWB_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace twb {

std::vector<std::string> distributed_backends() {
    std::vector<std::string> b;
#ifdef TWB_C10D_GLOO
    b.push_back("gloo");
#endif
#ifdef TWB_C10D_NCCL
    b.push_back("nccl");
#endif
    return b;
}

namespace nn {

namespace {
std::string first_line(const std::string& s) {
    const auto nl = s.find('\n');
    return nl == std::string::npos ? s : s.substr(0, nl);
}
constexpr int64_t kBucketElements = 1 << 20;  // 4 MB of float32 per all-reduce call

/// c10d logs its connection attempts through glog straight to stderr; a failed rendezvous is reported
/// by our one-line error instead, so stderr is muted while the ranks meet.
class QuietStderr {
public:
    QuietStderr() : m_saved(::dup(2)) {
        const int null = ::open("/dev/null", O_WRONLY);
        if (null >= 0) {
            ::dup2(null, 2);
            ::close(null);
        }
    }
    ~QuietStderr() {
        if (m_saved >= 0) {
            ::dup2(m_saved, 2);
            ::close(m_saved);
        }
    }

private:
    int m_saved;
};
}  // namespace

// libtorch 2.x made ProcessGroupGloo/NCCL backends (c10d::Backend) behind a ProcessGroup; a backend
// alone has every collective used here, with the same signatures as 1.13's ProcessGroup.
#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;
#else
using Group = c10d::ProcessGroup;
#endif

struct Communicator::Impl {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<Group> group;
};

Communicator::~Communicator() = default;

void Communicator::fail(const std::exception& e, const char* what) const {
    throw Error("distributed training, rank " + std::to_string(m_env.rank) + " of " + std::to_string(m_env.world_size) +
                ": " + what + " (" + first_line(e.what()) +
                "). A rank may have died or been killed; fix the cause and continue with --resume");
}

Communicator::Communicator(const DistributedEnv& env, const torch::Device& device)
    : d(std::make_unique<Impl>()), m_env(env) {
    const auto timeout = std::chrono::seconds(env.timeout_s);
    const std::string where = env.master_addr + ":" + std::to_string(env.master_port);
    QuietStderr quiet;
    try {
        c10d::TCPStoreOptions so;
        so.port = static_cast<uint16_t>(env.master_port);
        so.isServer = env.rank == 0;
        so.numWorkers = env.world_size;
        so.waitWorkers = true;
        so.timeout = timeout;
        d->store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, so);
    } catch (const std::exception& e) {
        const std::string msg = first_line(e.what());
        if (env.rank == 0 && (msg.find("in use") != std::string::npos || msg.find("bind") != std::string::npos))
            throw Error("distributed training: rank 0 cannot listen on " + where +
                        " (the port is in use?); choose another MASTER_PORT (" + msg + ")");
        throw Error("distributed training, rank " + std::to_string(env.rank) + ": the " +
                    std::to_string(env.world_size) + " ranks did not all meet at " + where + " within " +
                    std::to_string(env.timeout_s) + " s; is every rank started, with the same WORLD_SIZE, " +
                    "MASTER_ADDR and MASTER_PORT? (" + msg + ")");
    }
    try {
        if (device.is_cuda()) {
#ifdef TWB_C10D_NCCL
            auto opts = c10d::ProcessGroupNCCL::Options::create();
            opts->timeout = timeout;
            d->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(d->store, env.rank, env.world_size, opts);
#else
            throw Error("distributed training on CUDA needs a libtorch built with NCCL; this one is not");
#endif
        } else {
#ifdef TWB_C10D_GLOO
            auto opts = c10d::ProcessGroupGloo::Options::create();
            opts->timeout = timeout;
            opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
            d->group = c10::make_intrusive<c10d::ProcessGroupGloo>(d->store, env.rank, env.world_size, opts);
#else
            throw Error(
                "distributed training on CPU needs c10d's Gloo backend, which this build lacks "
                "(install libgloo-dev and rebuild)");
#endif
        }
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        fail(e, "the process group could not be formed");
    }
}

void Communicator::broadcast(torch::Tensor& t) {
    try {
        std::vector<at::Tensor> v{t};
        c10d::BroadcastOptions o;
        o.rootRank = 0;
        d->group->broadcast(v, o)->wait();
    } catch (const std::exception& e) {
        fail(e, "broadcast failed");
    }
}

void Communicator::average(torch::Tensor& flat) {
    try {
        for (int64_t off = 0; off < flat.numel(); off += kBucketElements) {
            std::vector<at::Tensor> v{flat.narrow(0, off, std::min(kBucketElements, flat.numel() - off))};
            d->group->allreduce(v)->wait();
        }
        flat.div_(m_env.world_size);
    } catch (const std::exception& e) {
        fail(e, "all-reduce of the gradients failed");
    }
}

double Communicator::average(double v) {
    auto t = torch::full({1}, v, torch::kFloat64);
    try {
        std::vector<at::Tensor> vec{t};
        d->group->allreduce(vec)->wait();
    } catch (const std::exception& e) {
        fail(e, "all-reduce failed");
    }
    return t.item<double>() / m_env.world_size;
}

bool Communicator::any(bool flag) {
    auto t = torch::full({1}, flag ? 1.0 : 0.0, torch::kFloat32);
    try {
        std::vector<at::Tensor> vec{t};
        c10d::AllreduceOptions o;
        o.reduceOp = c10d::ReduceOp::MAX;
        d->group->allreduce(vec, o)->wait();
    } catch (const std::exception& e) {
        fail(e, "all-reduce failed");
    }
    return t.item<float>() > 0.5f;
}

bool Communicator::identical(const torch::Tensor& t) {
    // Two checksums of the raw bytes (sum and xor of 32-bit words); ranks agree when max == min for each.
    const auto c = t.contiguous().to(torch::kCPU);
    const auto* p = static_cast<const uint32_t*>(c.data_ptr());
    const size_t n = static_cast<size_t>(c.nbytes()) / 4;
    uint64_t sum = 0;
    uint32_t x = 0;
    for (size_t i = 0; i < n; ++i) {
        sum += p[i];
        x ^= p[i] * static_cast<uint32_t>(i + 1);
    }
    auto v = torch::tensor({static_cast<double>(sum % (1ull << 52)), static_cast<double>(x),
                            -static_cast<double>(sum % (1ull << 52)), -static_cast<double>(x)},
                           torch::kFloat64);
    try {
        std::vector<at::Tensor> vec{v};
        c10d::AllreduceOptions o;
        o.reduceOp = c10d::ReduceOp::MAX;
        d->group->allreduce(vec, o)->wait();
    } catch (const std::exception& e) {
        fail(e, "all-reduce failed");
    }
    const auto a = v.accessor<double, 1>();
    return a[0] == -a[2] && a[1] == -a[3];
}

}  // namespace nn
}  // namespace twb
