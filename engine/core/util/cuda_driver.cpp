// The CUDA driver API through dlopen: cuInit, cuDeviceGet, cuDeviceGetCount, cuDeviceGetAttribute,
// cuDeviceGetName, cuDeviceTotalMem_v2, and for memory in use cuDevicePrimaryCtxRetain, cuCtxPushCurrent_v2,
// cuMemGetInfo_v2, cuCtxPopCurrent_v2, cuDevicePrimaryCtxRelease_v2 (their C signatures, with int for
// CUresult and CUdevice and void* for CUcontext, as cuda.h declares them).
#include "core/util/cuda_driver.h"

#include <dlfcn.h>

namespace twb {

namespace {
constexpr int kComputeCapabilityMajor = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeCapabilityMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

struct Driver {
    void* lib = nullptr;
    int (*init)(unsigned) = nullptr;
    int (*get)(int*, int) = nullptr;
    int (*attribute)(int*, int, int) = nullptr;
    int (*name)(char*, int, int) = nullptr;
    int (*total_mem)(size_t*, int) = nullptr;
    int (*count)(int*) = nullptr;
    int (*ctx_retain)(void**, int) = nullptr;
    int (*ctx_release)(int) = nullptr;
    int (*ctx_push)(void*) = nullptr;
    int (*ctx_pop)(void**) = nullptr;
    int (*mem_info)(size_t*, size_t*) = nullptr;
    int init_result = -1;
};

template <typename F>
void bind(void* lib, F& f, const char* symbol) {
    f = reinterpret_cast<F>(dlsym(lib, symbol));
}

const Driver& driver() {
    static const Driver d = [] {
        Driver r;
        r.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!r.lib)
            return r;
        bind(r.lib, r.init, "cuInit");
        bind(r.lib, r.get, "cuDeviceGet");
        bind(r.lib, r.attribute, "cuDeviceGetAttribute");
        bind(r.lib, r.name, "cuDeviceGetName");
        bind(r.lib, r.total_mem, "cuDeviceTotalMem_v2");
        bind(r.lib, r.count, "cuDeviceGetCount");
        bind(r.lib, r.ctx_retain, "cuDevicePrimaryCtxRetain");
        bind(r.lib, r.ctx_release, "cuDevicePrimaryCtxRelease_v2");
        bind(r.lib, r.ctx_push, "cuCtxPushCurrent_v2");
        bind(r.lib, r.ctx_pop, "cuCtxPopCurrent_v2");
        bind(r.lib, r.mem_info, "cuMemGetInfo_v2");
        if (r.init && r.get && r.attribute)
            r.init_result = r.init(0);
        return r;
    }();
    return d;
}
}  // namespace

CudaDeviceInfo cuda_device_info(int index) {
    CudaDeviceInfo info;
    const Driver& d = driver();
    if (!d.lib) {
        info.error = "no CUDA driver (libcuda.so.1) on this machine";
        return info;
    }
    if (!d.init || !d.get || !d.attribute) {
        info.error = "libcuda.so.1 lacks the driver API (cuInit, cuDeviceGet, cuDeviceGetAttribute)";
        return info;
    }
    if (d.init_result != 0) {
        info.error = "the CUDA driver did not start (cuInit returned " + std::to_string(d.init_result) + ")";
        return info;
    }
    int dev = 0;
    if (d.get(&dev, index) != 0) {
        info.error = "the CUDA driver has no device " + std::to_string(index);
        return info;
    }
    if (d.attribute(&info.major, kComputeCapabilityMajor, dev) != 0 ||
        d.attribute(&info.minor, kComputeCapabilityMinor, dev) != 0) {
        info.error = "the CUDA driver did not give device " + std::to_string(index) + "'s compute capability";
        return info;
    }
    char name[256] = {};
    if (d.name && d.name(name, sizeof name - 1, dev) == 0)
        info.name = name;
    size_t bytes = 0;
    if (d.total_mem && d.total_mem(&bytes, dev) == 0)
        info.memory = bytes;
    info.ok = true;
    return info;
}

int cuda_device_count() {
    const Driver& d = driver();
    int n = 0;
    if (d.count && d.init_result == 0 && d.count(&n) == 0)
        return n;
    return 0;
}

CudaMemory cuda_memory(int index) {
    CudaMemory m;
    const Driver& d = driver();
    if (d.init_result != 0 || !d.ctx_retain || !d.ctx_release || !d.ctx_push || !d.ctx_pop || !d.mem_info)
        return m;
    int dev = 0;
    void* ctx = nullptr;
    if (d.get(&dev, index) != 0 || d.ctx_retain(&ctx, dev) != 0)
        return m;
    if (d.ctx_push(ctx) == 0) {
        size_t free = 0, total = 0;
        if (d.mem_info(&free, &total) == 0 && free <= total) {
            m.ok = true;
            m.used = total - free;
            m.total = total;
        }
        void* popped = nullptr;
        d.ctx_pop(&popped);
    }
    d.ctx_release(dev);
    return m;
}

}  // namespace twb
