// Instruction tuning and chat: the template renders exactly what docs/chat.md says, the three shapes of
// instruction data parse (and bad records are refused with file and line), a chat dataset's loss spans
// cover the replies and their end of turn, masked positions contribute nothing to the loss or its gradient
// (checked by hand on a tiny batch), RUN/chat.jsonl round-trips, and a tiny model finetuned on synthetic
// instructions ("reverse: abc" -> "cba") answers held-out prompts exactly through ModelSession::chat.
#include "core/data/chat_data.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"
#include "test_util.h"
#include "twb/baselines.h"
#include "twb/chat.h"
#include "twb/chat_history.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/session.h"
#include "twb/synthetic.h"
#include "twb/tokenizer.h"
#include "twb/training.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <sstream>

using namespace twb;

namespace {
std::vector<int32_t> bytes(const std::string& s) {
    return std::vector<int32_t>(reinterpret_cast<const unsigned char*>(s.data()),
                                reinterpret_cast<const unsigned char*>(s.data()) + s.size());
}
}  // namespace

class TestChat : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    ChatPrepareOptions options(const std::string& jsonl, const char* out) {
        const auto in = twbtest::path(m_dir, (std::string(out) + ".jsonl").c_str());
        twbtest::write(in, jsonl);
        ChatPrepareOptions o;
        o.inputs = {in.string()};
        o.tokenizer.kind = TokenizerKind::Byte;
        o.out = twbtest::path(m_dir, out);
        return o;
    }

private slots:
    void templateIsExact() {
        const Conversation c{{ChatRole::System, "Be brief."}, {ChatRole::User, "hi"}, {ChatRole::Assistant, "yo"}};
        QCOMPARE(render_chat_text(c, "<eos>"),
                 std::string("<|system|>\nBe brief.<eos><|user|>\nhi<eos><|assistant|>\nyo<eos>"));
        QCOMPARE(render_chat_text({c[1]}, "<eos>", true), std::string("<|user|>\nhi<eos><|assistant|>\n"));
        // With a byte tokenizer: bytes of each header and content, <eos> (258) after each turn; the trained
        // span is the reply and its end of turn.
        const auto tok = make_byte_tokenizer();
        const ChatTokens t =
            render_chat_ids([&](std::string_view s) { return tok->encode(s); }, tok->eos_id(), c, false);
        std::vector<int32_t> want;
        for (const auto& [text, eot] : std::vector<std::pair<std::string, bool>>{
                 {"<|system|>\nBe brief.", true}, {"<|user|>\nhi", true}, {"<|assistant|>\nyo", true}}) {
            const auto b = bytes(text);
            want.insert(want.end(), b.begin(), b.end());
            want.push_back(258);
        }
        QCOMPARE(t.ids, want);
        QCOMPARE(t.trained.size(), size_t(1));
        QCOMPARE(t.trained[0].second, want.size());
        QCOMPARE(t.trained[0].first, want.size() - 3);  // "yo" + <eos>
        QCOMPARE(chat_header(ChatRole::Assistant), std::string("<|assistant|>\n"));
    }

    void threeShapesParse() {
        auto alpaca = parse_chat_record("{\"instruction\": \"Add\", \"input\": \"2 and 3\", \"output\": \"5\"}");
        QCOMPARE(alpaca.size(), size_t(1));
        QCOMPARE(alpaca[0].size(), size_t(2));
        QCOMPARE(alpaca[0][0].content, std::string("Add\n\n2 and 3"));
        QCOMPARE(alpaca[0][1].content, std::string("5"));
        QCOMPARE(parse_chat_record("{\"instruction\": \"Say hi\", \"input\": \"\", \"output\": \"hi\"}")[0][0].content,
                 std::string("Say hi"));
        const auto seed = parse_chat_record(
            "{\"id\": \"seed_task_1\", \"name\": \"x\", \"instruction\": \"Antonym?\", \"instances\": [{\"input\": "
            "\"hot\", \"output\": \"cold\"}, {\"input\": \"up\", \"output\": \"down\"}], \"is_classification\": "
            "false}");
        QCOMPARE(seed.size(), size_t(2));
        QCOMPARE(seed[1][0].content, std::string("Antonym?\n\nup"));
        QCOMPARE(seed[1][1].content, std::string("down"));
        const auto msgs = parse_chat_record(
            "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U\"}, "
            "{\"role\": \"assistant\", \"content\": \"A\"}, {\"role\": \"user\", \"content\": \"U2\"}, {\"role\": "
            "\"assistant\", \"content\": \"A2\"}]}");
        QCOMPARE(msgs[0].size(), size_t(5));
        QCOMPARE(msgs[0][0].role, ChatRole::System);
        QCOMPARE(msgs[0][4].content, std::string("A2"));
    }

    void badRecordsAreNamed_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("says");
        QTest::newRow("not json") << "{oops"
                                  << "not valid JSON (a broken or truncated line?)";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "not a JSON object";
        QTest::newRow("no instruction") << "{\"text\": \"x\"}"
                                        << "no \"instruction\"";
        QTest::newRow("no output") << "{\"instruction\": \"x\"}"
                                   << "no \"output\"";
        QTest::newRow("empty output") << "{\"instruction\": \"x\", \"output\": \"\"}"
                                      << "\"output\" is empty";
        QTest::newRow("instance") << "{\"instruction\": \"x\", \"instances\": [{\"input\": \"a\"}]}"
                                  << "instances[0]";
        QTest::newRow("role") << "{\"messages\": [{\"role\": \"bot\", \"content\": \"x\"}]}"
                              << "messages[0]";
        QTest::newRow("no reply") << "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}"
                                  << "no assistant turn";
        QTest::newRow("number") << "{\"instruction\": 3, \"output\": \"x\"}"
                                << "not a string";
    }
    void badRecordsAreNamed() {
        QFETCH(QString, line);
        QFETCH(QString, says);
        try {
            parse_chat_record(line.toStdString());
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains(says), e.what());
        }
    }

    void prepareMasksAllButTheReplies() {
        std::string jsonl;
        for (int i = 0; i < 20; ++i)
            jsonl += "{\"instruction\": \"echo\", \"input\": \"w" + std::to_string(i) + "\", \"output\": \"r" +
                     std::to_string(i) + "\"}\n";
        auto o = options(jsonl, "prep");
        o.system = "sys";
        o.val_fraction = 0.2;
        const ChatPrepareResult r = prepare_chat(o);
        QCOMPARE(r.train_conversations + r.val_conversations, uint64_t(20));
        QCOMPARE(r.val_conversations, uint64_t(4));
        const auto d = open_prepared(r.dir);
        QCOMPARE(d.chat_template, std::string(kChatTemplate));
        QVERIFY(d.has_documents);
        const TokenFile f(r.dir / "train.bin", d.dtype);
        const auto spans = read_loss_spans(d, "train", f.size());
        QVERIFY(spans.has_value());
        QCOMPARE(spans->docs.size(), size_t(r.train_conversations));
        const auto tok = TextTokenizer::load(r.dir);
        uint64_t trained = 0;
        for (auto [s, e] : spans->docs) {
            std::vector<int32_t> ids;
            for (uint64_t i = s; i < e; ++i)
                ids.push_back(f.at(i));
            QCOMPARE(ids.back(), tok.eos_id());  // the end of turn is trained: the model learns to stop
            ids.pop_back();
            QVERIFY(QString::fromStdString(tok.decode(ids)).startsWith("r"));
            trained += e - s;
        }
        QCOMPARE(trained, r.train_trained_tokens);
        // The conversation itself: the system turn put first, the whole template.
        const auto docs = DocumentIndex::read(r.dir / "train.docs", f.size(), d.train_documents);
        std::vector<int32_t> first;
        for (uint64_t i = docs.docs[0].first; i < docs.docs[0].second; ++i)
            first.push_back(f.at(i));
        QVERIFY(QString::fromStdString(tok.decode(first)).startsWith("<|system|>\nsys"));

        // Refused: the char tokenizer (no <eos>), a bad record (file and line named; nothing left behind).
        auto c = options(jsonl, "char");
        c.tokenizer.kind = TokenizerKind::Char;
        QVERIFY_THROWS_EXCEPTION(ConfigError, prepare_chat(c));
        auto bad = options(jsonl + "{\"instruction\": \"x\"}\n", "bad");
        try {
            prepare_chat(bad);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("bad.jsonl:21: has no \"output\""), e.what());
        }
        QVERIFY(!std::filesystem::exists(bad.out));
    }

    void repliesOfUnknownWordsAreWarnedAboutAndStatsAreKept() {
        // Twenty distinct replies with a word vocabulary too small for them: every reply is <unk>, which
        // the model would learn to say; and the dataset's statistics read as none (0 characters a token).
        std::string jsonl;
        for (int i = 0; i < 20; ++i)
            jsonl += "{\"instruction\": \"say\", \"output\": \"word" + std::to_string(i) + "x\"}\n";
        auto o = options(jsonl, "unknown");
        o.tokenizer.kind = TokenizerKind::Word;
        o.tokenizer.vocab_size = 20;
        const ChatPrepareResult r = prepare_chat(o);
        QCOMPARE(r.warnings.size(), size_t(1));
        QVERIFY2(
            QString::fromStdString(r.warnings[0]).contains("of the reply tokens the model is trained on are <unk>"),
            r.warnings[0].c_str());
        const auto stats = inspect_prepared(r.dir, 0).stats;
        QVERIFY(stats.chars_per_token > 0.5);
        QVERIFY2(stats.unk_rate > 0.02 && stats.unk_rate < 0.9, qPrintable(QString::number(stats.unk_rate)));
        QVERIFY(prepare_chat(options(jsonl, "known")).warnings.empty());  // bytes know every word
    }

    void baselinesScoreTheRepliesOnly() {
        // The baselines scored every token of a chat dataset while the model's loss sees its replies only.
        // Every reply here is "yes": within the replies, each byte's follower is certain, so the bigram is
        // always right; over the whole text (the prompts' "echo w3", the headers) it is not.
        std::string jsonl;
        for (int i = 0; i < 30; ++i)
            jsonl +=
                "{\"instruction\": \"echo\", \"input\": \"w" + std::to_string(i * 7) + "\", \"output\": \"yes\"}\n";
        auto o = options(jsonl, "baselines");
        o.val_fraction = 0.2;
        prepare_chat(o);
        const auto rows = evaluate_baselines(o.out);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[2].name, std::string("bigram"));
        QCOMPARE(rows[2].accuracy, 1.0);
        QVERIFY(rows[2].loss < rows[1].loss && rows[1].loss < rows[0].loss);
        QVERIFY(rows[2].bits_per_char > 0);
    }
    void maskedPositionsContributeNothing() {
        // Token file: one conversation of 6 tokens at offsets 0..5, its reply span [3, 6).
        // <bos>=1, <eos>=2: the sequence is 1 10 11 12 13 14 15 2; targets 10..15, 2.
        auto make = [&](const char* name, int32_t prompt) {
            const auto p = twbtest::path(m_dir, name);
            TokenWriter w(p, TokenDtype::U16);
            const std::vector<int32_t> ids{10, prompt, 12, 13, 14, 2};
            w.write(ids.data(), ids.size());
            w.close();
            return p;
        };
        const TokenFile fa(make("a.bin", 11), TokenDtype::U16), fb(make("b.bin", 17), TokenDtype::U16);
        DocumentIndex docs, spans;
        docs.docs = {{0, 6}};
        spans.docs = {{3, 6}};
        nn::DocumentSource src{&docs, 1, 2, 0, &spans};
        const nn::Batcher ba(fa, src, 16, 1, 1), bb(fb, src, 16, 1, 1);
        const auto [xa, ya] = ba.pieces_batch(0, 1, torch::Device(torch::kCPU));
        const auto [xb, yb] = bb.pieces_batch(0, 1, torch::Device(torch::kCPU));
        // Targets: only the reply (13 14) and its end of turn (2) are kept; the batch's own <eos> is not.
        QVERIFY(torch::equal(ya, torch::tensor({{-1, -1, -1, 13, 14, 2, -1}}, torch::kInt64)));
        QVERIFY(torch::equal(ya, yb));  // a different prompt token is a different input, never a target

        // The loss by hand: the mean of -log softmax over the three kept positions only.
        torch::manual_seed(3);
        const int64_t V = 20;
        const auto logits = torch::randn({1, 7, V}, torch::kFloat64).requires_grad_(true);
        const auto loss = nn::masked_cross_entropy(logits.view({-1, V}), ya.reshape({-1}));
        double sum = 0;
        for (int t : {3, 4, 5}) {
            const auto row = logits[0][t];
            sum += torch::logsumexp(row, 0).item<double>() - row[ya[0][t].item<int64_t>()].item<double>();
        }
        QVERIFY2(std::abs(loss.item<double>() - sum / 3) < 1e-12, qPrintable(QString::number(loss.item<double>())));
        loss.backward();
        const auto g = logits.grad()[0];
        for (int t = 0; t < 7; ++t) {
            const bool kept = t >= 3 && t <= 5;
            const double mag = g[t].abs().sum().item<double>();
            QVERIFY2(kept ? mag > 0 : mag == 0.0, qPrintable(QString("position %1: %2").arg(t).arg(mag)));
        }
    }

    void historyRoundTrips() {
        const auto run = twbtest::path(m_dir, "run-history");
        std::filesystem::create_directories(run);
        QCOMPARE(latest_chat(run).messages.size(), size_t(0));
        QCOMPARE(next_conversation(run), int64_t(1));
        ChatTurn u;
        u.message = {ChatRole::User, "héllo\nthere"};
        u.source = "cli";
        ChatTurn a;
        a.message = {ChatRole::Assistant, "hi"};
        a.checkpoint_step = 40;
        a.cancelled = true;
        append_chat_turns(run, {u, a});
        ChatTurn u2 = u;
        u2.conversation = 2;
        u2.message.content = "second";
        append_chat_turns(run, {u2});
        const auto all = read_chat_history(run);
        QCOMPARE(all.size(), size_t(3));
        QCOMPARE(all[0].message.content, std::string("héllo\nthere"));
        QCOMPARE(all[1].message.role, ChatRole::Assistant);
        QCOMPARE(all[1].checkpoint_step, int64_t(40));
        QVERIFY(all[1].cancelled);
        QVERIFY(!all[0].time.empty());
        const ChatThread latest = latest_chat(run);
        QCOMPARE(latest.conversation, int64_t(2));
        QCOMPARE(latest.messages.size(), size_t(1));
        QCOMPARE(next_conversation(run), int64_t(3));
        // A torn or hand-edited line is skipped, the rest still read.
        twbtest::write(run / "chat.jsonl", read_file(run / "chat.jsonl") + "{\"role\": \"robot\"}\n{torn");
        QCOMPARE(read_chat_history(run).size(), size_t(3));
        // Edited conversation numbers the next one could not follow (it overflowed to a negative number).
        twbtest::write(run / "chat.jsonl",
                       read_file(run / "chat.jsonl") +
                           "\n{\"conversation\": 9223372036854775807, \"role\": \"user\", \"content\": \"x\"}\n"
                           "{\"conversation\": 1e300, \"role\": \"user\", \"content\": \"x\"}\n"
                           "{\"conversation\": -4, \"role\": \"user\", \"content\": \"x\"}\n");
        QCOMPARE(read_chat_history(run).size(), size_t(3));
        QCOMPARE(next_conversation(run), int64_t(3));
    }

    void tinyModelLearnsInstructions() {
        // "reverse: cabd" -> "dbac" over 2-4 letters of a-e (twb synth --task instructions, the reverse
        // records), a byte tokenizer: the format and the operation are learned from about 950 conversations.
        SyntheticSpec spec;
        spec.task = "instructions";
        spec.examples = 4000;
        spec.min_length = 2;
        spec.max_length = 4;
        spec.alphabet = 5;
        const auto reverse = [](const std::string& jsonl) {
            std::vector<Conversation> out;
            for (auto& c : parse_all(jsonl))
                if (c[0].content.rfind("reverse: ", 0) == 0)
                    out.push_back(c);
            return out;
        };
        std::string records;
        std::set<std::string> seen;
        for (const auto& c : reverse(generate_synthetic(spec))) {
            records += "{\"instruction\": \"" + c[0].content + "\", \"output\": \"" + c[1].content + "\"}\n";
            seen.insert(c[0].content);
        }
        auto o = options(records, "synth");
        o.val_fraction = 0.05;
        prepare_chat(o);

        RunConfig c = preset_config("tiny");
        c.data_dir = o.out.string();
        c.n_layer = 2;
        c.n_head = 4;
        c.n_embd = 64;
        c.block_size = 48;
        c.batch_size = 32;
        // 4500 steps at 5e-3: 60 of 60 held-out reversals with OpenBLAS's Haswell, SkylakeX and Zen kernels
        // alike, and at 4e-3 and 6e-3 too. 3000 steps at 1e-2 (at 3e-3 it answered without reading the
        // input) sat on a knife-edge: 60 of 60 with one CPU's float32 kernels, 42 with another's.
        c.learning_rate = 5e-3;
        c.max_iters = 4500;
        // float32 on every CPU: the suite's second pass (TWB_CPU_BF16=1) would emulate bf16 on an AVX2 CPU,
        // its steps at several times the cost; what is learned, not the precision, is the point here.
        c.dtype = DType::Float32;
        c.lr_decay_iters = c.max_iters;
        c.warmup_iters = 20;
        c.eval_interval = c.max_iters;
        c.eval_iters = 4;
        c.dropout = 0;
        c.threads = 2;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, "synth-run").string();
        train(job, TrainCallbacks{});

        ModelSession s;
        s.open(job.run_dir, "last");
        QCOMPARE(s.config().sequences, Sequences::Documents);  // a chat dataset trains as documents
        // Validation scores the replies only: as many targets as the val split has trained tokens.
        const auto meta = open_prepared(o.out).meta;
        const EvalResult ev = s.evaluate(EvalOptions{});
        QCOMPARE(ev.tokens, meta.at("chat").at("trained_tokens").at("val").get<int64_t>());

        // Held-out prompts (another seed, none seen in training), answered greedily through the template.
        spec.seed = 2;
        spec.examples = 2000;
        int asked = 0, right = 0;
        SamplingOptions so;
        so.temperature = 0;
        so.max_new_tokens = 12;
        for (const auto& conv : reverse(generate_synthetic(spec))) {
            if (seen.count(conv[0].content) || asked == 60)
                continue;
            ++asked;
            const auto r = s.chat({conv[0]}, so);
            right += r.texts.at(0) == conv[1].content;
            QVERIFY(r.generated < so.max_new_tokens);  // stopped at the end of turn
        }
        QVERIFY(asked >= 40);
        const double share = static_cast<double>(right) / asked;
        qInfo("%d of %d held-out reversals exact", right, asked);
        QVERIFY2(share > 0.9, qPrintable(QString("%1 of %2 exact").arg(right).arg(asked)));
    }

private:
    static std::vector<Conversation> parse_all(const std::string& jsonl) {
        std::vector<Conversation> out;
        std::istringstream in(jsonl);
        std::string line;
        while (std::getline(in, line))
            for (auto& c : parse_chat_record(line))
                out.push_back(c);
        return out;
    }
};

// The learning case trains 3000 steps: about 2.5 minutes on 2 idle cores, 20 on 2 cores shared with four
// other jobs, more than Qt Test's default 5 minutes per function (ctest's TIMEOUT still bounds the whole).
int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "2400000");
    TestChat t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_chat.moc"
