// Precompiled header for the torch-free core's sources: nlohmann/json and the standard headers most of
// them include (json alone costs a couple of seconds per file otherwise). Only what every build of the
// core may see: no torch, no Qt.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
