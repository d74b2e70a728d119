// Precompiled header for twb's sources: CLI11 and nlohmann/json, header-only libraries that cost about
// 8 s per file otherwise (most of a command's compile time), and the standard stream headers.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
