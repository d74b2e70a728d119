// RUN/tb/, TensorBoard's event files: CRC32C against known vectors, the TFRecord framing and the events
// decoded back by a small protobuf reader written here (independent of core/run/tfevents.cpp's writer);
// a short training run of each family writes tb/ mirroring metrics.csv and the attention probe's
// pictures (their pixels read back with zlib; a resume from an earlier checkpoint leaves no step twice),
// tensorboard=false writes none, and export_tensorboard rebuilds it. TensorBoard's own reader is checked by
// bench/tensorboard_reference.sh (Python; not in the suite).
#include "core/run/tfevents.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/metrics.h"
#include "twb/probe.h"
#include "twb/run_folder.h"
#include "twb/tensorboard.h"
#include "twb/training.h"

#include <zlib.h>
#include <cstring>
#include <map>
#include <set>

using namespace twb;
namespace fs = std::filesystem;

namespace {
// ---- a reader of the records and of the few protobuf fields the writer uses
struct Field {
    int number = 0, wire = 0;
    uint64_t value = 0;  // varint, or the bits of a fixed32/fixed64
    std::string bytes;   // wire type 2
};

uint64_t varint(const std::string& s, size_t& i) {
    uint64_t v = 0;
    for (int shift = 0; i < s.size(); shift += 7) {
        const auto b = static_cast<uint8_t>(s[i++]);
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    throw std::runtime_error("truncated varint");
}

uint64_t little(const std::string& s, size_t at, int n) {
    if (at + static_cast<size_t>(n) > s.size())
        throw std::runtime_error("truncated fixed field");
    uint64_t v = 0;
    for (int k = 0; k < n; ++k)
        v |= static_cast<uint64_t>(static_cast<uint8_t>(s[at + static_cast<size_t>(k)])) << (8 * k);
    return v;
}

std::vector<Field> fields(const std::string& msg) {
    std::vector<Field> out;
    size_t i = 0;
    while (i < msg.size()) {
        const uint64_t key = varint(msg, i);
        Field f;
        f.number = static_cast<int>(key >> 3);
        f.wire = static_cast<int>(key & 7);
        if (f.wire == 0) {
            f.value = varint(msg, i);
        } else if (f.wire == 1 || f.wire == 5) {
            const int n = f.wire == 1 ? 8 : 4;
            f.value = little(msg, i, n);
            i += static_cast<size_t>(n);
        } else if (f.wire == 2) {
            const size_t n = varint(msg, i);
            if (i + n > msg.size())
                throw std::runtime_error("truncated bytes field");
            f.bytes = msg.substr(i, n);
            i += n;
        } else {
            throw std::runtime_error("unexpected wire type " + std::to_string(f.wire));
        }
        out.push_back(f);
    }
    return out;
}

struct Value {
    std::string tag, plugin, text;
    bool has_simple = false;
    float simple = 0;
    int height = 0, width = 0, colorspace = 0;  // an image
    std::string png;
};
struct Event {
    double wall = 0;
    int64_t step = 0;
    std::string file_version;
    std::vector<Value> values;
};

Value value_of(const std::string& msg) {
    Value v;
    for (const auto& f : fields(msg)) {
        if (f.number == 1)
            v.tag = f.bytes;
        else if (f.number == 2 && f.wire == 5) {
            const auto bits = static_cast<uint32_t>(f.value);
            std::memcpy(&v.simple, &bits, 4);
            v.has_simple = true;
        } else if (f.number == 9)  // metadata { plugin_data { plugin_name } }
            for (const auto& pd : fields(f.bytes))
                for (const auto& pn : fields(pd.bytes))
                    v.plugin = pn.number == 1 ? pn.bytes : v.plugin;
        else if (f.number == 4)  // image { height, width, colorspace, encoded_image_string }
            for (const auto& i : fields(f.bytes)) {
                if (i.number == 1)
                    v.height = static_cast<int>(i.value);
                else if (i.number == 2)
                    v.width = static_cast<int>(i.value);
                else if (i.number == 3)
                    v.colorspace = static_cast<int>(i.value);
                else if (i.number == 4)
                    v.png = i.bytes;
            }
        else if (f.number == 8)  // tensor { dtype = 7, string_val }
            for (const auto& t : fields(f.bytes)) {
                if (t.number == 1 && t.value != 7)
                    throw std::runtime_error("text tensor of dtype " + std::to_string(t.value));
                if (t.number == 8)
                    v.text = t.bytes;
            }
    }
    return v;
}

Event event_of(const std::string& msg) {
    Event e;
    for (const auto& f : fields(msg)) {
        if (f.number == 1)
            std::memcpy(&e.wall, &f.value, 8);
        else if (f.number == 2)
            e.step = static_cast<int64_t>(f.value);
        else if (f.number == 3)
            e.file_version = f.bytes;
        else if (f.number == 5)
            for (const auto& v : fields(f.bytes))
                e.values.push_back(value_of(v.bytes));
    }
    return e;
}

/// The records of an event file, each CRC checked; throws on a bad length or CRC.
std::vector<std::string> records(const std::string& file) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < file.size()) {
        if (i + 12 > file.size())
            throw std::runtime_error("truncated record header");
        const std::string len = file.substr(i, 8);
        if (little(file, i + 8, 4) != tfevents::masked_crc32c(len))
            throw std::runtime_error("length CRC mismatch");
        const size_t n = little(file, i, 8);
        if (i + 12 + n + 4 > file.size())
            throw std::runtime_error("truncated record");
        const std::string data = file.substr(i + 12, n);
        if (little(file, i + 12 + n, 4) != tfevents::masked_crc32c(data))
            throw std::runtime_error("data CRC mismatch");
        out.push_back(data);
        i += 12 + n + 4;
    }
    return out;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<fs::path> event_files(const fs::path& run) {
    std::vector<fs::path> out;
    if (fs::is_directory(run / "tb"))
        for (auto& e : fs::directory_iterator(run / "tb"))
            out.push_back(e.path());
    return out;
}

std::vector<Event> read_events(const fs::path& file) {
    std::vector<Event> out;
    for (const auto& r : records(slurp(file)))
        out.push_back(event_of(r));
    return out;
}

/// tag -> (step, value) in file order, from the scalar events.
using Scalars = std::map<std::string, std::vector<std::pair<int64_t, double>>>;
Scalars scalars_of(const std::vector<Event>& events) {
    Scalars s;
    for (const auto& e : events)
        for (const auto& v : e.values)
            if (v.has_simple)
                s[v.tag].push_back({e.step, v.simple});
    return s;
}
Scalars scalars_of(const std::vector<MetricsRow>& rows) {
    Scalars s;
    for (const auto& r : rows)
        for (const auto& x : tensorboard_scalars(r))
            s[x.tag].push_back({r.step, x.value});
    return s;
}

/// The pixels of a grey, unfiltered PNG (what the writer makes), read with zlib; checks the signature,
/// the header's size and every chunk's CRC.
std::vector<uint8_t> png_pixels(const std::string& png, int width, int height) {
    if (png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0)
        throw std::runtime_error("no PNG signature");
    auto be = [&](size_t at) {
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k)
            v = v << 8 | static_cast<uint8_t>(png.at(at + k));
        return v;
    };
    std::string idat;
    for (size_t at = 8; at + 12 <= png.size();) {
        const uint32_t n = be(at);
        const std::string type = png.substr(at + 4, 4), data = png.substr(at + 8, n);
        const std::string body = png.substr(at + 4, 4 + n);
        if (be(at + 8 + n) != static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                                          static_cast<uInt>(body.size()))))
            throw std::runtime_error("PNG chunk " + type + " CRC mismatch");
        if (type == "IHDR" && (be(at + 8) != static_cast<uint32_t>(width) ||
                               be(at + 12) != static_cast<uint32_t>(height) || data[8] != 8 || data[9] != 0))
            throw std::runtime_error("PNG header is not an 8-bit grey image of the event's size");
        if (type == "IDAT")
            idat += data;
        at += 12 + n;
    }
    std::vector<uint8_t> raw(static_cast<size_t>((width + 1) * height));
    uLongf size = static_cast<uLongf>(raw.size());
    if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), static_cast<uLong>(idat.size())) !=
            Z_OK ||
        size != raw.size())
        throw std::runtime_error("PNG data does not inflate to the image");
    std::vector<uint8_t> px;
    for (int y = 0; y < height; ++y) {
        if (raw[static_cast<size_t>(y * (width + 1))] != 0)
            throw std::runtime_error("PNG row with a filter");
        px.insert(px.end(), raw.begin() + y * (width + 1) + 1, raw.begin() + (y + 1) * (width + 1));
    }
    return px;
}

/// Every probe record of an evaluation in metrics.csv is one picture per layer, at its step, once; each
/// head's block holds the record's weights (a weight grown to scale x scale pixels).
void check_images(const fs::path& run, const std::vector<Event>& events) {
    std::map<std::pair<std::string, int64_t>, const Value*> images;
    for (const auto& e : events)
        for (const auto& v : e.values)
            if (!v.png.empty() && !images.emplace(std::make_pair(v.tag, e.step), &v).second)
                throw std::runtime_error(v.tag + " twice at step " + std::to_string(e.step));
    std::set<int64_t> evals;
    for (const auto& r : read_metrics(run / "metrics.csv"))
        if (r.kind == "eval")
            evals.insert(r.step);
    size_t expected = 0;
    for (const auto& t : {read_probe(run), read_cross_probe(run)}) {
        if (t.empty())
            continue;
        const int64_t keys = t.key_length > 0 ? t.key_length : t.length;
        const int64_t scale = std::max<int64_t>(1, std::min<int64_t>(8, 128 / std::max(keys, t.length)));
        const std::string prefix = t.kind == AttentionKind::Cross ? "cross_attention/layer_" : "attention/layer_";
        for (size_t i = 0; i < t.steps.size(); ++i) {
            if (!evals.count(t.steps[i]))
                continue;
            const AttentionCapture c = t.at(i);
            for (int64_t l = 0; l < t.layers; ++l, ++expected) {
                const auto it = images.find({prefix + std::to_string(l), t.steps[i]});
                if (it == images.end())
                    throw std::runtime_error("no " + prefix + std::to_string(l) + " at step " +
                                             std::to_string(t.steps[i]));
                const Value& v = *it->second;
                const int64_t cell = keys * scale;
                if (v.width != t.heads * cell + (t.heads - 1) * 2 || v.height != t.length * scale || v.colorspace != 1)
                    throw std::runtime_error("picture of the wrong size");
                const auto px = png_pixels(v.png, v.width, v.height);
                for (int64_t h = 0; h < t.heads; ++h)
                    for (int64_t q = 0; q < t.length; ++q)
                        for (int64_t k = 0; k < keys; ++k) {
                            const uint8_t got =
                                px[static_cast<size_t>((q * scale + scale - 1) * v.width + h * (cell + 2) + k * scale)];
                            if (std::abs(got / 255.0 - c.at(l, h, q, k)) > 1e-6)
                                throw std::runtime_error("pixel differs from the probe's weight");
                        }
            }
        }
    }
    if (images.size() != expected)
        throw std::runtime_error(std::to_string(images.size()) + " pictures, " + std::to_string(expected) +
                                 " probe layers");
}

/// The steps of each picture's tag.
std::map<std::string, std::vector<int64_t>> images_of(const std::vector<Event>& events) {
    std::map<std::string, std::vector<int64_t>> out;
    for (const auto& e : events)
        for (const auto& v : e.values)
            if (!v.png.empty())
                out[v.tag].push_back(e.step);
    return out;
}

/// Same tags, steps in the same order, values equal within float32 (tb/ holds metrics.csv's 6 digits).
void compare(const Scalars& got, const Scalars& want) {
    QCOMPARE(got.size(), want.size());
    for (const auto& [tag, w] : want) {
        QVERIFY2(got.count(tag), tag.c_str());
        const auto& g = got.at(tag);
        QCOMPARE(g.size(), w.size());
        for (size_t i = 0; i < w.size(); ++i) {
            QCOMPARE(g[i].first, w[i].first);
            QVERIFY2(std::abs(g[i].second - w[i].second) <= 1e-7 * std::abs(w[i].second),
                     qPrintable(QString("%1 step %2: %3 vs %4")
                                    .arg(tag.c_str())
                                    .arg(w[i].first)
                                    .arg(g[i].second)
                                    .arg(w[i].second)));
        }
    }
}
}  // namespace

class TestTensorBoard : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_data;

    RunConfig config(int iters) const {
        RunConfig c = preset_config("tiny");
        c.dtype = DType::Float32;
        c.data_dir = m_data.string();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = iters;
        c.lr_decay_iters = iters;
        c.warmup_iters = 2;
        c.eval_interval = 10;
        c.eval_iters = 1;
        c.log_interval = 2;
        c.threads = 1;
        return c;
    }
    static void run(const RunConfig& c, const fs::path& dir, bool resume = false, int stopAt = -1) {
        TrainJob job;
        job.config = c;
        job.run_dir = dir.string();
        job.resume = resume;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) { return s.step != stopAt; };
        train(job, cb);
    }
    /// The run's one event file, checked: file_version first, the config text at step 0, then scalars
    /// equal to metrics.csv's.
    static std::vector<Event> check_mirror(const fs::path& run) {
        const auto files = event_files(run);
        if (files.size() != 1)
            throw std::runtime_error("tb/ holds " + std::to_string(files.size()) + " files, not 1");
        const std::string name = files[0].filename().string();
        if (name.rfind("events.out.tfevents.", 0) != 0)
            throw std::runtime_error("event file named " + name);
        const auto events = read_events(files[0]);
        if (events.size() < 2 || events[0].file_version != "brain.Event:2")
            throw std::runtime_error("no file_version event first");
        const Value& text = events[1].values.at(0);
        if (events[1].step != 0 || text.tag != "config" || text.plugin != "text")
            throw std::runtime_error("no config text at step 0");
        if (text.text.find("\"n_embd\": 16") == std::string::npos)
            throw std::runtime_error("the config text lacks n_embd: " + text.text);
        compare(scalars_of(events), scalars_of(read_metrics(run / "metrics.csv")));
        check_images(run, events);
        return events;
    }

private slots:
    void initTestCase() {
        std::string text;
        std::mt19937 rng(3);
        for (int i = 0; i < 2000; ++i)
            text += (rng() % 10 == 0) ? "xyz\n" : "hello world\n";
        twbtest::write(twbtest::path(m_dir, "c.txt"), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_data = o.out;
    }

    void crc32cMatchesKnownVectors() {
        QCOMPARE(tfevents::crc32c(""), 0u);
        QCOMPARE(tfevents::crc32c("123456789"), 0xe3069283u);
        QCOMPARE(tfevents::crc32c(std::string(32, '\0')), 0x8a9136aau);  // RFC 3720 B.4
        QCOMPARE(tfevents::crc32c(std::string(32, '\xff')), 0x62a8ab43u);
        QCOMPARE(tfevents::masked_crc32c(""), 0xa282ead8u);  // ((0 >> 15) | (0 << 17)) + 0xa282ead8
        const uint32_t c = 0xe3069283u;
        QCOMPARE(tfevents::masked_crc32c("123456789"), ((c >> 15) | (c << 17)) + 0xa282ead8u);
    }
    void recordFramingIsTfRecords() {
        // "abc" framed, as an independent Python implementation of the TFRecord format writes it.
        const std::string want(
            "\x03\0\0\0\0\0\0\0\xb0\x99\x49\x0e"
            "abc\x6e\x57\xf1\x21",
            19);
        QCOMPARE(tfevents::frame_record("abc"), want);
        // A flipped byte is caught by the reader above (so its checks below mean something).
        std::string bad = tfevents::frame_record("hello");
        QCOMPARE(records(bad).size(), size_t(1));
        bad[13] ^= 1;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, records(bad));
    }
    void logWritesEveryScalarOfEveryRow() {
        const fs::path dir = twbtest::path(m_dir, "log");
        fs::create_directories(dir);
        MetricsRow t;
        t.step = 5;
        t.kind = "train";
        t.train_loss = 2.5;
        t.lr = 1e-3;
        t.tokens_per_s = 12345.5;
        t.ms_per_step = 7.25;
        MetricsRow e;
        e.step = 10;
        e.kind = "eval";
        e.train_loss = 2.0;
        e.val_loss = 2.25;
        e.val_accuracy = 0.5;
        e.val_perplexity = std::exp(2.25);
        e.val_bpc = 3.1;
        e.val_bleu = 12.5;
        {
            TensorBoardLog log(dir, nlohmann::json{{"n_embd", 16}}, {t}, 1000.0, 10.0);
            log.append(e);
        }
        const auto events = read_events(event_files(dir).at(0));
        QCOMPARE(events.size(), size_t(2 + 4 + 6));  // version, config, 4 train scalars, 6 eval ones
        QCOMPARE(events[2].wall, 1000.0);            // elapsed_s unknown: the time given
        const Scalars s = scalars_of(events);
        QCOMPARE(s.at("train/loss"), (std::vector<std::pair<int64_t, double>>{{5, 2.5}}));
        QCOMPARE(s.at("train/tokens_per_s"), (std::vector<std::pair<int64_t, double>>{{5, 12345.5}}));
        QCOMPARE(s.at("eval/val_bleu"), (std::vector<std::pair<int64_t, double>>{{10, 12.5}}));
        QCOMPARE(s.at("eval/val_accuracy"), (std::vector<std::pair<int64_t, double>>{{10, 0.5}}));
        QCOMPARE(s.at("train/lr")[0].second, static_cast<double>(1e-3f));
        QVERIFY(!s.count("eval/train_accuracy"));  // NaN: left out
        QVERIFY(!s.count("train/epoch"));
        compare(s, scalars_of(std::vector<MetricsRow>{t, e}));
        QVERIFY(!fs::exists(dir / "metrics.csv"));  // the log writes tb/ only
    }
    void trainingWritesTbLive() {
        const fs::path dir = twbtest::path(m_dir, "live");
        run(config(20), dir);
        const auto events = check_mirror(dir);
        const Scalars s = scalars_of(events);
        QCOMPARE(s.at("train/loss").size(), size_t(10));  // every log_interval=2 steps
        QCOMPARE(s.at("train/loss").back().first, int64_t(20));
        QCOMPARE(s.at("eval/val_loss").size(), size_t(3));  // steps 0, 10, 20
        QVERIFY(s.count("eval/val_bpc") && s.count("eval/val_perplexity") && s.count("eval/val_accuracy"));
        QVERIFY(s.count("train/tokens_per_s") && s.count("train/lr"));
        QCOMPARE(images_of(events).at("attention/layer_0"), (std::vector<int64_t>{0, 10, 20}));  // the probe
        for (size_t i = 3; i < events.size(); ++i)  // wall times never go back
            QVERIFY(events[i].wall >= events[i - 1].wall);
    }
    void resumeFromAnEarlierCheckpointLeavesNoStepTwice() {
        const fs::path dir = twbtest::path(m_dir, "resumed");
        run(config(30), dir, false, 16);  // stopped at 16: checkpoints 10 and 16, rows to 16
        QCOMPARE(list_checkpoints(dir), (std::vector<int64_t>{10, 16}));
        fs::remove_all(dir / "checkpoints" / checkpoint_dir_name(16));  // as if it crashed after step 16
        QCOMPARE(scalars_of(read_events(event_files(dir).at(0))).at("train/loss").back().first, int64_t(16));
        run(config(30), dir, true);  // from 10: steps 11-16 again
        const Scalars s = scalars_of(check_mirror(dir));
        for (const auto& [tag, points] : s)
            for (size_t i = 1; i < points.size(); ++i)
                QVERIFY2(points[i].first > points[i - 1].first, tag.c_str());
        QCOMPARE(s.at("train/loss").size(), size_t(15));
        QCOMPARE(s.at("eval/val_loss").size(), size_t(4));  // 0, 10, 20, 30
        QCOMPARE(images_of(check_mirror(dir)).at("attention/layer_0"), (std::vector<int64_t>{0, 10, 20, 30}));
    }
    void switchedOffWritesNone() {
        const fs::path dir = twbtest::path(m_dir, "off");
        RunConfig c = config(10);
        c.tensorboard = false;
        run(c, dir);
        QVERIFY(fs::exists(dir / "metrics.csv"));
        QVERIFY(!fs::exists(dir / "tb"));
        // A run resumed with it off loses the tb/ it had (it would hold steps metrics.csv no longer has).
        const fs::path other = twbtest::path(m_dir, "off-later");
        run(config(10), other);
        QVERIFY(fs::exists(other / "tb"));
        c.max_iters = 20;
        run(c, other, true);
        QVERIFY(!fs::exists(other / "tb"));
        // export_tensorboard makes it from metrics.csv and config.json.
        const TensorBoardExport ex = export_tensorboard(other);
        QCOMPARE(ex.event_file.parent_path(), other / "tb");
        QCOMPARE(ex.rows, static_cast<int64_t>(read_metrics(other / "metrics.csv").size()));
        const auto events = check_mirror(other);
        QCOMPARE(ex.images, static_cast<int64_t>(images_of(events).at("attention/layer_0").size()));
        QCOMPARE(ex.scalars + ex.images, static_cast<int64_t>(events.size() - 2));
        // Again: replaced, still one file (no leftovers beside it in the run).
        export_tensorboard(other);
        check_mirror(other);
        for (auto& e : fs::directory_iterator(other))
            QVERIFY2(e.path().filename().string().rfind(".tb.", 0) != 0, e.path().c_str());
    }
    void exportRefusesWhatIsNotARun() {
        const fs::path notRun = twbtest::path(m_dir, "not-a-run");
        fs::create_directories(notRun);
        try {
            export_tensorboard(notRun);
            QFAIL("exported a folder that is not a run");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("is not a run") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(notRun / "tb"));
        // A folder where metrics.csv should be is named as such ("it has no metrics.csv" sent people looking for
        // a file that was there, in a way).
        twbtest::write(notRun / "config.json", "{}");
        fs::create_directories(notRun / "metrics.csv");
        try {
            export_tensorboard(notRun);
            QFAIL("exported a run whose metrics.csv is a folder");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("metrics.csv is a folder or another non-file") != std::string::npos,
                     e.what());
        }
        QVERIFY(!fs::exists(notRun / "tb"));
    }
    void encoderDecoderRunHasBleuAndAccuracy() {
        std::mt19937 rng(5);
        std::string src;
        for (int i = 0; i < 300; ++i) {
            const int n = 3 + static_cast<int>(rng() % 3);
            for (int k = 0; k < n; ++k)
                src += std::string(1, static_cast<char>('a' + rng() % 6)) + (k + 1 < n ? " " : "\n");
        }
        twbtest::write(twbtest::path(m_dir, "s.txt"), src);
        ParallelPrepareOptions o;
        o.source = o.target = twbtest::path(m_dir, "s.txt").string();
        o.val_fraction = 0.1;
        o.test_fraction = 0.05;
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "pairs");
        prepare_parallel(o);
        RunConfig c = preset_config("tatoeba");
        c.data_dir = o.out.string();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.ffn_hidden = 32;
        c.block_size = 8;
        c.max_epochs = 0;
        c.max_iters = 6;
        c.batch_tokens = 100;
        c.eval_interval = 3;
        c.eval_iters = 1;
        c.bleu_pairs = 5;
        c.log_interval = 1;
        c.threads = 1;
        const fs::path dir = twbtest::path(m_dir, "pairs-run");
        run(c, dir);
        const Scalars s = scalars_of(check_mirror(dir));
        QCOMPARE(s.at("eval/val_bleu").size(), size_t(3));  // steps 0, 3, 6
        QVERIFY(s.count("eval/val_accuracy") && s.count("train/epoch"));
        QCOMPARE(images_of(check_mirror(dir)).at("cross_attention/layer_0"), (std::vector<int64_t>{0, 3, 6}));
    }
};

QTEST_APPLESS_MAIN(TestTensorBoard)
#include "tst_tensorboard.moc"
