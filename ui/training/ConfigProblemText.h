// The engine's config problems (twb::RunConfig::validate: English sentences in config keys) in the interface's
// language, for the training form to show under the fields they name. In Bokmål the form showed "Avtakingssteg (5)
// must be larger than Oppvarming (30)": its labels in the engine's English sentence.
#pragma once
#include <QString>

/// engineText in the interface's language, its config keys kept (the form then puts its labels for them) and its
/// numbers written as the interface writes them; engineText itself in English, and where it is none of the
/// problems a form's values can give (a device the machine lacks, say: that stays as the engine wrote it).
QString configProblemText(const QString& engineText);
