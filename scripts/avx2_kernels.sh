# Sourced: `avx2_kernels_env` exports what makes the libraries on an AVX-512 CPU take the kernels an
# AVX2-only CPU runs, so that one machine can show the other kind's numbers and rounding:
#   TWB_CPU_BF16=0               dtype=auto trains in float32, as where bf16 is not native
#   ATEN_CPU_CAPABILITY=avx2     libtorch's vectorised ops (softmax, GELU, adds, casts) in their AVX2 build
#   OPENBLAS_CORETYPE=Haswell    OpenBLAS's AVX2 kernels for the float32 matrix products
#   GLIBC_TUNABLES=...           glibc's string and memory functions without AVX-512
# oneDNN is left alone: libtorch asks cpuinfo (which still sees AVX-512) whether to give it a bf16
# product, and oneDNN capped at AVX2 then refuses that product, where a real AVX2 CPU never asks. Our own
# kernels need nothing: the decoder's and AdamW's are AVX2 on every CPU; the AVX-512 ones serve bf16 only.
# What this cannot change: the cores themselves (caches, clocks, AVX-512 hardware's AVX2 speed).
avx2_kernels_env() {
  export TWB_CPU_BF16=0 ATEN_CPU_CAPABILITY=avx2 OPENBLAS_CORETYPE=Haswell
  export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD
}
