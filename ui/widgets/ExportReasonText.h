// Why a run cannot be exported in a format (twb::hf_export_blocker, gguf_run_blocker: "SETTING: why", several
// joined by "; ") in the interface's language. In Bokmål the export dialog said "Posisjoner = rotary: GPT-2 has
// learned positions": its labels in the engine's English.
#pragma once
#include <QString>

/// engineText in the interface's language, its settings ("position=rotary") kept for the dialog to put in the
/// form's words; engineText itself in English, and where a part is none the engine writes.
QString exportReasonText(const QString& engineText);
