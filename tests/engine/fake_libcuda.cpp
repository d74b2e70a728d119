// A stand-in for the CUDA driver (built as libcuda.so.1 in its own folder, put on LD_LIBRARY_PATH by the
// tests that use it): FAKE_CUDA_DEVICES devices (default 2), device i named "Fake GPU i" with
// (80 >> i) GiB of which a quarter is in use, compute capability 9.0. Memory is answered only with a
// context current, as the real driver does; fake_cuda_balance() tells the test whether every retained
// context was released and every pushed one popped.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace {
int g_current = 0;   // contexts pushed and not popped
int g_retained = 0;  // primary contexts retained and not released
int device_count() {
    const char* n = std::getenv("FAKE_CUDA_DEVICES");
    return n ? std::atoi(n) : 2;
}
size_t total_of(int dev) {
    return (size_t(80) << 30) >> dev;
}
}  // namespace

extern "C" {
int cuInit(unsigned) {
    return 0;
}
int cuDeviceGetCount(int* n) {
    *n = device_count();
    return 0;
}
int cuDeviceGet(int* dev, int ordinal) {
    if (ordinal < 0 || ordinal >= device_count())
        return 101;  // CUDA_ERROR_INVALID_DEVICE
    *dev = ordinal;
    return 0;
}
int cuDeviceGetAttribute(int* value, int attribute, int) {
    *value = attribute == 75 ? 9 : 0;
    return 0;
}
int cuDeviceGetName(char* name, int len, int dev) {
    std::snprintf(name, static_cast<size_t>(len), "Fake GPU %d", dev);
    return 0;
}
int cuDeviceTotalMem_v2(size_t* bytes, int dev) {
    *bytes = total_of(dev);
    return 0;
}
int cuDevicePrimaryCtxRetain(void** ctx, int dev) {
    *ctx = reinterpret_cast<void*>(static_cast<size_t>(dev) + 1);
    ++g_retained;
    return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) {
    --g_retained;
    return 0;
}
int cuCtxPushCurrent_v2(void*) {
    ++g_current;
    return 0;
}
int cuCtxPopCurrent_v2(void** ctx) {
    if (ctx)
        *ctx = nullptr;
    --g_current;
    return 0;
}
int cuMemGetInfo_v2(size_t* free, size_t* total) {
    if (g_current <= 0)
        return 201;  // CUDA_ERROR_INVALID_CONTEXT
    *total = total_of(0);
    *free = *total - *total / 4;
    return 0;
}
int fake_cuda_balance() {
    return g_current == 0 && g_retained == 0;
}
}
