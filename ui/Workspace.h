// Where runs and datasets live: a workspace folder (default in the user's XDG data directory,
// changeable and remembered), with runs/ and datasets/ inside. A run is exactly the folder
// `twb train` writes, so CLI runs open here and GUI runs continue in the CLI.
#pragma once
#include <QString>
#include <QStringList>

class Workspace {
public:
    /// The workspace folder from QSettings, or the XDG default; created if missing.
    static QString root();
    static void setRoot(const QString& path);
    static QString runsDir();
    static QString datasetsDir();
    /// Where the Experiments panel puts sweep folders (not created here: a sweep makes its own).
    static QString sweepsDir();
    /// Why the chosen workspace cannot be used as it is ("" when it can, or none was chosen): it does not
    /// exist (a drive not mounted?) or is not a folder. Asked before anything creates it (root() would).
    static QString problemAtStart();
    /// A folder name from what a person typed: letters and digits of any script, '.', '_' and '-' kept,
    /// every other run of characters one '-', no leading dot or dash, at most 80 characters; "" when
    /// nothing is left ("文字" stays "文字"; it was "-", the same folder for every name in such a script).
    static QString folderName(const QString& typed);
    /// Folders under runs/ that hold a config.json, newest first.
    static QStringList runs();
    /// The cells' runs of every sweep under sweeps/ (folders holding a config.json): newest sweep first, its cells
    /// in their order.
    static QStringList sweepCells();
    /// Prepared dataset folders under datasets/ that open cleanly (meta.json and token files agree).
    static QStringList datasets();
    /// A fresh run folder name under runs/ ("run-20261122-031500").
    static QString newRunPath(const QString& stem = "run");
    /// A run as people know it: its name (run.json) or, unnamed, its folder's name.
    static QString runName(const QString& dir);
    /// A run in a list: "folder · dataset" ("folder · dataset, translation" for an encoder-decoder), "name (folder
    /// · dataset)" for a named run, the folder's name alone when its config cannot be read.
    static QString runLabel(const QString& dir);
    static QStringList recentRuns();
    static void addRecentRun(const QString& path);
    /// Model FLOPs per second this machine last trained at (6 x parameters x tokens/s), from any training
    /// in the Training or Experiments panel; 0 before the first. The Experiments panel's time estimate.
    static double trainingSpeed();
    static void rememberTrainingSpeed(double parameters, double tokensPerSecond);
};
