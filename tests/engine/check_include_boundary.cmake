# cmake -DCXX=... -DINCLUDES="a;b;..." -DWHO=twb_ui -DWORK=DIR -P check_include_boundary.cmake
# The engine boundary, checked by the compiler with a target's own include path: a public header
# (twb/...) and the target's own folders (ui/..., app/...) compile; an engine-internal header
# (engine/..., core/..., nn/...) does not. Fails naming the include that broke the rule.
set(flags "")
foreach(d IN LISTS INCLUDES)
  list(APPEND flags "-I${d}")
endforeach()
if(NOT WORK)
  message(FATAL_ERROR "give -DWORK=DIR: where the probe file is written")
endif()
set(work "${WORK}")
file(MAKE_DIRECTORY "${work}")

function(try_include header expect)
  file(WRITE "${work}/probe.cpp" "#include \"${header}\"\nint main() { return 0; }\n")
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only ${flags} "${work}/probe.cpp"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(expect STREQUAL "compiles" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${WHO}: #include \"${header}\" should compile with its include path and did not:\n${err}")
  elseif(expect STREQUAL "refused" AND rc EQUAL 0)
    message(FATAL_ERROR "${WHO}: #include \"${header}\" compiles, so ${WHO} can reach engine internals; "
                        "its include path must hold engine/include, engine/include_nn and its own folders only")
  endif()
  message(STATUS "${WHO}: #include \"${header}\" ${expect}")
endfunction()

try_include("twb/errors.h" compiles)
foreach(h IN LISTS OWN)
  try_include("${h}" compiles)
endforeach()
try_include("engine/core/util/memory.h" refused)
try_include("core/util/memory.h" refused)
try_include("engine/nn/device.h" refused)
try_include("nn/device.h" refused)
