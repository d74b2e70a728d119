// twb embeddings: the embedding explorer on the command line, through ModelSession as the GUI's
// Embeddings tab: a word's nearest tokens, the similarity of two texts, the 2-D map as CSV.
#include "app/twb/commands.h"
#include "twb/embeddings.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/session.h"
#include "twb/text.h"

#include <cstdio>

namespace twb::cli {

namespace {
std::string ids_text(const std::vector<int32_t>& ids) {
    std::string s;
    for (int32_t id : ids)
        s += (s.empty() ? "" : " ") + std::to_string(id);
    return s;
}
}  // namespace

Action add_embeddings(CLI::App& app) {
    struct Opts {
        std::string run, checkpoint = "best", near, out;
        std::vector<std::string> similarity;
        int k = 10, map = 0;
        bool force = false;
    };
    auto o = std::make_shared<Opts>();
    app.add_option("--run,-r", o->run, "Run folder (from twb train) or a checkpoint folder")->required();
    app.add_option("--checkpoint", o->checkpoint, "best (default), last or a step number");
    auto* near = app.add_option("--near", o->near,
                                "Print the tokens nearest to WORD by cosine similarity of their embeddings (a word "
                                "of several tokens stands for their mean)")
                     ->type_name("WORD");
    app.add_option("-k", o->k, "How many neighbours --near prints (default 10)");
    auto* sim = app.add_option("--similarity", o->similarity,
                               "Print the cosine similarity of two words or short texts (A B), each the mean of "
                               "its tokens' embeddings")
                    ->expected(2)
                    ->type_name("A B");
    auto* map = app.add_option("--map", o->map,
                               "Project the N most frequent tokens on the top two principal components of their "
                               "embeddings; CSV id,token,count,x,y")
                    ->type_name("N");
    app.add_option("--out,-o", o->out, "Write the --map CSV to this file (default: standard output)")
        ->type_name("FILE");
    app.add_flag("--force", o->force, "Replace an existing --out file");
    near->excludes(sim)->excludes(map);
    sim->excludes(map);
    return [o, near, sim, map]() {
        if (!*near && !*sim && !*map)
            throw InputError("say what to show: --near WORD, --similarity A B or --map N");
        if (!o->out.empty() && !*map)
            throw InputError("--out goes with --map N (the map is the only output written to a file)");
        if (!o->out.empty())
            check_output_file(o->out, {o->run}, o->force);
        ModelSession m;
        m.open(o->run, o->checkpoint);
        if (*near) {
            const auto r = m.nearest_tokens(o->near, o->k);
            std::printf("nearest to \"%s\" (%s %s) at step %lld, by cosine similarity:\n",
                        visible_whitespace(o->near).c_str(), r.query_ids.size() == 1 ? "token" : "mean of tokens",
                        ids_text(r.query_ids).c_str(), static_cast<long long>(m.step()));
            for (size_t i = 0; i < r.neighbours.size(); ++i)
                std::printf("%3zu  %+.4f  %6d  %s\n", i + 1, r.neighbours[i].similarity, r.neighbours[i].id,
                            visible_whitespace(r.neighbours[i].text).c_str());
        } else if (*sim) {
            const auto r = m.similarity(o->similarity[0], o->similarity[1]);
            std::printf("similarity %+.6f  \"%s\" (%zu token%s) vs \"%s\" (%zu token%s), step %lld\n", r.similarity,
                        visible_whitespace(o->similarity[0]).c_str(), r.a_ids.size(), r.a_ids.size() == 1 ? "" : "s",
                        visible_whitespace(o->similarity[1]).c_str(), r.b_ids.size(), r.b_ids.size() == 1 ? "" : "s",
                        static_cast<long long>(m.step()));
        } else {
            const auto r = m.embedding_map(o->map);
            const std::string csv = embedding_map_csv(r);
            if (o->out.empty())
                std::fwrite(csv.data(), 1, csv.size(), stdout);
            else
                write_file_atomic(o->out, csv);
            std::fprintf(stderr,
                         "twb: %zu tokens: %s; the two components explain %.1f%% and %.1f%% of their variance%s%s\n",
                         r.points.size(), r.source.c_str(), 100 * r.explained[0], 100 * r.explained[1],
                         o->out.empty() ? "" : "; wrote ", o->out.c_str());
        }
        return 0;
    };
}

}  // namespace twb::cli
