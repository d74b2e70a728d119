// Anchors the error classes' vtables in one translation unit.
#include "engine/data/errors.h"
