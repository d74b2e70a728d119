# Finds libtorch, in this order (docs/gpu-and-distributed.md, "Getting libtorch"):
#   1. the user's -DTorch_DIR=... or -DCMAKE_PREFIX_PATH=... (the official LibTorch zip, a source build);
#   2. Debian's package (libtorch-dev: 1.13, CPU only), found on the default search path;
#   3. the libtorch inside PyPI's torch wheel in a virtual environment (2.x, CUDA-enabled), asked for
#      with `python -c "import torch; print(torch.utils.cmake_prefix_path)"`.
# TWB_LIBTORCH=wheel skips 1 and 2 (scripts/build.sh's build-wheel/); TWB_LIBTORCH=auto is the order above.
# TWB_TORCH_VENV is the virtual environment (default: $TWB_TORCH_VENV, else
# ~/.local/share/transformer-workbench/torch-wheel, the one `scripts/setup.sh --libtorch=wheel` makes).
# Afterwards: TWB_TORCH_SOURCE (user, debian or wheel) and Torch_VERSION; configuring stops with a clear
# message when libtorch's C++ ABI differs from the compiler's (and so Qt's and every Debian library's).

set(TWB_LIBTORCH "auto" CACHE STRING "Where libtorch comes from: auto (user's, Debian's, then the wheel) or wheel")
set_property(CACHE TWB_LIBTORCH PROPERTY STRINGS auto wheel)
if(DEFINED ENV{TWB_TORCH_VENV})
  set(_twb_default_venv "$ENV{TWB_TORCH_VENV}")
else()
  set(_twb_default_venv "$ENV{HOME}/.local/share/transformer-workbench/torch-wheel")
endif()
set(TWB_TORCH_VENV "${_twb_default_venv}" CACHE PATH "Virtual environment holding PyPI's torch wheel")

function(_twb_wheel_prefix out)
  set(${out} "" PARENT_SCOPE)
  set(_py "${TWB_TORCH_VENV}/bin/python")
  if(NOT EXISTS "${_py}")
    return()
  endif()
  execute_process(COMMAND "${_py}" -c "import torch.utils; print(torch.utils.cmake_prefix_path)"
    OUTPUT_VARIABLE _prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND EXISTS "${_prefix}/Torch/TorchConfig.cmake")
    set(${out} "${_prefix}" PARENT_SCOPE)
  endif()
endfunction()

# A CUDA-enabled libtorch's config looks for the CUDA toolkit (nvcc, cuDNN from the wheel's nvidia-*
# packages). Point it at the wheel's cuDNN when it is there.
# The wheel's torch/ folder goes first on the prefix path: its config's find_library and
# find_dependency(Caffe2) calls would otherwise find Debian's libtorch.so and Caffe2 config in /usr.
macro(_twb_find_wheel_torch prefix)
  get_filename_component(_twb_torch_root "${prefix}/../.." ABSOLUTE)
  get_filename_component(_twb_site "${_twb_torch_root}/.." ABSOLUTE)
  if(NOT DEFINED CUDNN_ROOT AND EXISTS "${_twb_site}/nvidia/cudnn")
    set(CUDNN_ROOT "${_twb_site}/nvidia/cudnn")
  endif()
  list(PREPEND CMAKE_PREFIX_PATH "${_twb_torch_root}" "${prefix}")
  set(Caffe2_DIR "${prefix}/Caffe2" CACHE PATH "" FORCE)
  find_package(Torch REQUIRED PATHS "${prefix}" NO_DEFAULT_PATH)
  if(NOT TORCH_LIBRARY MATCHES "^${_twb_torch_root}/")
    message(FATAL_ERROR "the wheel's TorchConfig found ${TORCH_LIBRARY}, not the wheel's libtorch")
  endif()
  # libtorch_cuda needs the wheel's own CUDA libraries (nvidia-* packages; its RPATH finds them at run
  # time). The linker must see those too, not the CUDA toolkit's older NCCL in ldconfig's cache; and
  # --as-needed drops the toolkit's libcudart/libnvrtc that TorchConfig adds but our code never calls,
  # so at run time the wheel's (newer) ones load, as in Python.
  file(GLOB _twb_nvidia_libs LIST_DIRECTORIES true "${_twb_site}/nvidia/*/lib")
  foreach(_dir ${_twb_nvidia_libs})
    add_link_options("LINKER:-rpath-link,${_dir}")
  endforeach()
  add_link_options("LINKER:--as-needed")
endmacro()

if(TWB_LIBTORCH STREQUAL "wheel")
  _twb_wheel_prefix(_twb_prefix)
  if(NOT _twb_prefix)
    message(FATAL_ERROR "TWB_LIBTORCH=wheel but ${TWB_TORCH_VENV}/bin/python has no torch: run "
      "`scripts/setup.sh --libtorch=wheel` (or set TWB_TORCH_VENV to a venv with torch installed)")
  endif()
  _twb_find_wheel_torch("${_twb_prefix}")
  set(TWB_TORCH_SOURCE wheel)
elseif(NOT TWB_LIBTORCH STREQUAL "auto")
  message(FATAL_ERROR "TWB_LIBTORCH=${TWB_LIBTORCH}: expected auto or wheel")
else()
  find_package(Torch QUIET)
  if(Torch_FOUND)
    if(Torch_DIR MATCHES "^/usr/")
      set(TWB_TORCH_SOURCE debian)
    else()
      set(TWB_TORCH_SOURCE user)
    endif()
  else()
    _twb_wheel_prefix(_twb_prefix)
    if(NOT _twb_prefix)
      message(FATAL_ERROR "libtorch not found. Either install Debian's (scripts/setup.sh), make a venv "
        "with PyPI's torch (scripts/setup.sh --libtorch=wheel) or pass -DTorch_DIR=<libtorch>/share/cmake/Torch")
    endif()
    _twb_find_wheel_torch("${_twb_prefix}")
    set(TWB_TORCH_SOURCE wheel)
  endif()
endif()

# Torch_VERSION: Debian's config does not set it; its version header does.
if(NOT Torch_VERSION)
  foreach(_dir ${TORCH_INCLUDE_DIRS})
    if(EXISTS "${_dir}/torch/csrc/api/include/torch/version.h")
      file(STRINGS "${_dir}/torch/csrc/api/include/torch/version.h" _v REGEX "define TORCH_VERSION \"")
      string(REGEX REPLACE ".*TORCH_VERSION \"([^\"]+)\".*" "\\1" Torch_VERSION "${_v}")
      break()
    endif()
  endforeach()
endif()

# The C++ ABI: libtorch's flags name it (-D_GLIBCXX_USE_CXX11_ABI=0|1). Qt, CLI11's users and every
# Debian library use the compiler's default; a libtorch with the other one links with undefined
# std::string symbols or, worse, crashes. The wheels use the C++11 ABI from torch 2.7 on.
try_compile(_twb_cxx11_abi_default ${CMAKE_BINARY_DIR}/abi_check
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/abi_check.cpp
  COMPILE_DEFINITIONS -DTWB_EXPECT_ABI=1)
if(_twb_cxx11_abi_default)
  set(_twb_compiler_abi 1)
else()
  set(_twb_compiler_abi 0)
endif()
set(_twb_torch_abi ${_twb_compiler_abi})
if(TORCH_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=([01])")
  set(_twb_torch_abi ${CMAKE_MATCH_1})
endif()
if(NOT _twb_torch_abi EQUAL _twb_compiler_abi)
  message(FATAL_ERROR "libtorch ${Torch_VERSION} (${Torch_DIR}) uses _GLIBCXX_USE_CXX11_ABI=${_twb_torch_abi} "
    "but ${CMAKE_CXX_COMPILER} and Qt use ${_twb_compiler_abi}: they cannot be linked together. Use a libtorch "
    "built with the C++11 ABI (PyPI's torch >= 2.7, LibTorch's cxx11-abi zip, Debian's package).")
endif()
message(STATUS "libtorch ${Torch_VERSION} from ${TWB_TORCH_SOURCE} (${Torch_DIR}), "
  "_GLIBCXX_USE_CXX11_ABI=${_twb_torch_abi}")

# The supported range: Debian 12's 1.13, and 2.11 (what GPU images ship now) up to the newest tested.
# Between them nothing is tested (and wheels before 2.7 have the other ABI); newer than the newest tested
# configures with a warning. TWB_ALLOW_UNTESTED_TORCH=ON builds an unsupported version anyway.
set(TWB_TORCH_OLDEST_2X 2.11)
set(TWB_TORCH_NEWEST_TESTED 2.15)
option(TWB_ALLOW_UNTESTED_TORCH "Configure with a libtorch outside the supported range" OFF)
if(Torch_VERSION VERSION_LESS 1.13 OR
   (Torch_VERSION VERSION_GREATER_EQUAL 1.14 AND Torch_VERSION VERSION_LESS ${TWB_TORCH_OLDEST_2X}))
  set(_twb_range_msg "libtorch ${Torch_VERSION} is outside the supported range (1.13, or ${TWB_TORCH_OLDEST_2X} "
    "to ${TWB_TORCH_NEWEST_TESTED}): use Debian's libtorch-dev or `scripts/setup.sh --libtorch=wheel` (PyPI's torch), "
    "or -DTWB_ALLOW_UNTESTED_TORCH=ON to try anyway")
  if(TWB_ALLOW_UNTESTED_TORCH)
    message(WARNING "${_twb_range_msg}")
  else()
    message(FATAL_ERROR "${_twb_range_msg}")
  endif()
elseif(Torch_VERSION VERSION_GREATER_EQUAL 2.16)
  message(WARNING "libtorch ${Torch_VERSION} is newer than the newest tested (${TWB_TORCH_NEWEST_TESTED}); "
    "run the tests (bash scripts/test.sh) before trusting it")
endif()

# libstdc++ first in every program's needed libraries. Some torch wheels export their own copies of
# libstdc++ functions (2.11's libtorch.so: 64 std::filesystem symbols; 2.15's libtorch_cpu.so:
# std::filesystem::remove_all), and the dynamic linker binds each call to the first library in the needed
# order that defines it: with torch's libraries first, std::filesystem::remove_all jumped into torch's
# copy and crashed (issue 33). --no-as-needed keeps the entry even where --as-needed is on.
# tests/engine/check_std_bindings.sh checks every program's bindings.
add_link_options("LINKER:--push-state,--no-as-needed,-lstdc++,--pop-state")
