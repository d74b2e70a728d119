// The embedding map's one file format (CSV), shared by `twb embeddings --map` and the GUI's export.
#include "twb/embeddings.h"

#include <cstdio>

namespace twb {

std::string embedding_map_csv(const EmbeddingMap& map) {
    std::string out = "id,token,count,x,y\n";
    for (const auto& p : map.points) {
        std::string q = "\"";
        for (char c : p.text)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        q += '"';
        char nums[96];
        std::snprintf(nums, sizeof nums, ",%llu,%.9g,%.9g\n", static_cast<unsigned long long>(p.count), p.x, p.y);
        out += std::to_string(p.id) + "," + q + nums;
    }
    return out;
}

}  // namespace twb
