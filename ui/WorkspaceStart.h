// Before the main window: a chosen workspace folder that is gone (a drive not mounted) or is a file is said,
// not silently made again empty (the runs looked lost and new work went to the wrong disk).
#pragma once
#include <QString>

class WorkspaceStart {
public:
    /// When Workspace::problemAtStart() names a problem, asks: create the folder (when missing), choose
    /// another, or use the default. Returns false when the person quits instead.
    static bool settle();
};
