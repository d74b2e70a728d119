// How the tokenizer kinds read in the interface ("characters" for the engine's spelling "char"): the
// Tokenize tab's choices and the catalogue's suggestion.
#pragma once
#include "twb/choices.h"

#include <QObject>
#include <QString>
#include <string>

inline QString tokenizerKindLabel(twb::TokenizerKind k) {
    switch (k) {
        case twb::TokenizerKind::Char:
            return QObject::tr("characters");
        case twb::TokenizerKind::Byte:
            return QObject::tr("bytes");
        case twb::TokenizerKind::Word:
            return QObject::tr("words");
        case twb::TokenizerKind::Bpe:
            return QObject::tr("sentencepiece BPE");
        case twb::TokenizerKind::Unigram:
            return QObject::tr("sentencepiece unigram");
        case twb::TokenizerKind::ByteBpe:
            return QObject::tr("byte-level BPE");
    }
    return {};
}

/// The same for a spelling; the spelling itself when it names no kind.
inline QString tokenizerKindLabel(const std::string& spelling) {
    try {
        return tokenizerKindLabel(twb::parse_choice<twb::TokenizerKind>(spelling, "tokenizer"));
    } catch (const std::exception&) {
        return QString::fromStdString(spelling);
    }
}
