// Precompiled header for the engine's torch sources (torch/torch.h costs ~15 s per file otherwise).
#pragma once
#include <torch/torch.h>
#include <atomic>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
