// How the panels show a token's text: whitespace made visible, so a space, a newline or a tab
// token can be told apart and clicked.
#pragma once
#include <QString>

/// One token standing alone (labels, lists, tables): space ␣, newline ↵, tab →, CR \r, empty ∅; a
/// byte piece of an ASCII character (<0x58>) as the character.
QString visibleToken(const QString& s);
/// A token inside running HTML text: escaped, newlines shown as a grey ↵ and broken, tabs as a grey →.
QString tokenHtml(const QString& s);
/// Background colour for a token of probability p: red (unlikely) through yellow to green (likely); light
/// grey for NaN (no probability known).
QString probabilityTint(double p);
/// Background colour for an attribution s in [-1, 1] (a value over the largest |value| shown): blue raised
/// the token, red lowered it, white none.
QString attributionTint(double s);
