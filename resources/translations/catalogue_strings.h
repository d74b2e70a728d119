// datasets/catalogue.json's titles, descriptions and licences, listed for lupdate so the Datasets panel's
// Catalogue tab shows them in the interface's language (CatalogueTab translates them under "Catalogue").
// Keep in step with the catalogue: tst_translation fails on a description without a Bokmål text. Not compiled.
#pragma once
#include <QtGlobal>

[[maybe_unused]] static const char* const twb_catalogue_strings[] = {
    QT_TRANSLATE_NOOP("Catalogue", "Debian fortune cookies"),
    QT_TRANSLATE_NOOP("Catalogue",
                      "About 2.5 MB of fortune-cookie quotes and jokes from Debian's 'fortunes' package, one record "
                      "per fortune. The offline default: installed by setup, no download."),
    QT_TRANSLATE_NOOP("Catalogue",
                      "Various; distributed by Debian in the fortunes package (see /usr/share/doc/fortunes/copyright)"),
    QT_TRANSLATE_NOOP("Catalogue", "Tiny Shakespeare"),
    QT_TRANSLATE_NOOP("Catalogue",
                      "A subset of Shakespeare's plays (speaker names and lines), compiled by Andrej Karpathy; the "
                      "classic char-rnn/nanoGPT corpus. 65 distinct characters."),
    QT_TRANSLATE_NOOP("Catalogue", "Public domain texts; char-rnn repository MIT"),
    QT_TRANSLATE_NOOP("Catalogue", "WikiText-2 (raw, validation + test)"),
    QT_TRANSLATE_NOOP("Catalogue",
                      "Wikipedia Good and Featured articles (Merity et al. 2016), raw text without <unk>. Validation "
                      "and test splits as kept in pytorch/examples."),
    QT_TRANSLATE_NOOP("Catalogue", "CC BY-SA 3.0"),
    QT_TRANSLATE_NOOP("Catalogue", "TinyStories (validation sample)"),
    QT_TRANSLATE_NOOP("Catalogue",
                      "The first ~0.8 MB of the TinyStories validation split (Eldan and Li 2023): short simple stories "
                      "for small language models."),
    QT_TRANSLATE_NOOP("Catalogue", "CDLA-Sharing-1.0"),
    QT_TRANSLATE_NOOP("Catalogue", "Multi30k German-English (task 1)"),
    QT_TRANSLATE_NOOP(
        "Catalogue",
        "Flickr30K image captions with German translations (Elliott et al. 2016), line-aligned: train 29,000 pairs, "
        "val 1,014, test2016 1,000. Files are gzip on the server; sha256 is of the unpacked file."),
    QT_TRANSLATE_NOOP("Catalogue", "Non-commercial research and education use (Multi30K README)"),
    QT_TRANSLATE_NOOP("Catalogue", "Tatoeba English-Norwegian Bokmål"),
    QT_TRANSLATE_NOOP(
        "Catalogue",
        "6,015 sentence pairs from tatoeba.org, tab-separated: English, Bokmål, attribution. Ordered short to long."),
    QT_TRANSLATE_NOOP("Catalogue", "CC BY 2.0 FR (keep the attribution column when redistributing)"),
};
