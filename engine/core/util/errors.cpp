// Anchors the error classes' vtables in one translation unit.
#include "twb/errors.h"
