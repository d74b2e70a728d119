// Compiles only when the compiler's default C++ ABI is TWB_EXPECT_ABI (cmake/TwbLibtorch.cmake).
#include <string>
#if _GLIBCXX_USE_CXX11_ABI != TWB_EXPECT_ABI
#error "different C++ ABI"
#endif
int main() {
    return 0;
}
