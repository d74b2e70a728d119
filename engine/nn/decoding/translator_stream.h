// One source translated token by token for Translator::translate_stream (translation.h): greedy decoding
// streamed as it goes through decoding.h's generate_ids over a Seq2SeqSource (encoder once, decoder KV
// cache), or a beam search whose final best hypothesis is then scored in one teacher-forced decoder pass
// and streamed. No decoder loop of its own.
#pragma once
#include "core/tokenizers/tokenizer.h"
#include "nn/models/seq2seq_model.h"
#include "twb/translation.h"

#include <atomic>

namespace twb::nn {

/// source: ids without <eos>. See Translator::translate_stream.
StreamedTranslation stream_translation(Seq2Seq& model, const Tokenizer& tok, const std::vector<int32_t>& source,
                                       const TranslateOptions& opt, const torch::Device& device,
                                       const TranslationTokenCallback& on_token, int alternatives,
                                       const std::atomic<bool>* cancel);

}  // namespace twb::nn
