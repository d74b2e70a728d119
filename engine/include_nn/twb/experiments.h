// Experiments in one include: reference baselines (baselines.h), the learning-rate range finder
// (lr_finder.h), sweeps (sweep.h, sweep_runner.h) and the table of a folder of runs (runs_table.h).
// Declares nothing of its own; each of those headers is implemented in one library. Public API; no torch.
#pragma once
#include "twb/baselines.h"
#include "twb/lr_finder.h"
#include "twb/runs_table.h"
#include "twb/sweep.h"
#include "twb/sweep_runner.h"
