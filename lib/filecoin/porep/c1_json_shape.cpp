// cuzk — the lengths and names a seal config implies in a C1 JSON file.
#include "c1_json_shape.hpp"

#include <fmt/format.h>

namespace cuzk::filecoin::c1json {

namespace {

// log_b(n) when n is an exact positive power of b (b >= 2), else -1.
int exact_log(uint64_t n, unsigned b)
{
    if (n == 0 || b < 2) return -1;
    int k = 0;
    while (n > 1) {
        if (n % b != 0) return -1;
        n /= b;
        ++k;
    }
    return k;
}

} // namespace

std::string shape_of(const seal_config& c, c1_shape& out)
{
    const int d_levels = exact_log(c.nodes, 2);
    if (d_levels < 1)
        return fmt::format("nodes = {} is not a power of two >= 2 (the comm_d tree is binary)", c.nodes);
    const uint64_t trees = c.tree.base_trees();
    const int t_levels = c.nodes % trees == 0 ? exact_log(c.nodes / trees, c.tree.base) : -1;
    if (t_levels < 1)
        return fmt::format("nodes = {} does not fit tree {}", c.nodes, c.tree.name());
    if (c.layers < 1 || c.partitions < 1 || c.challenges_per_partition < 1)
        return "layers, partitions and challenges per partition must be >= 1";
    out.nodes = c.nodes;
    out.layers = c.layers;
    out.partitions = c.partitions;
    out.challenges = c.challenges_per_partition;
    out.comm_d = proof_shape{2, unsigned(d_levels), 0, 0};
    out.tree = proof_shape{c.tree.base, unsigned(t_levels), c.tree.sub, c.tree.top};
    return {};
}

std::string vanilla_variant(const seal_config& c)
{
    if (c.registered_id < 0) return std::string(k_custom_variant);
    // Every registered name is "StackedDrg<size>V1..."; the variant stops
    // right after that first "V1".
    const std::string name = registered_seal_proof(c.registered_id).name;
    const size_t v = name.find("V1", 10);
    return name.substr(0, v + 2);
}

int registered_id_of(std::string_view name)
{
    for (int id = 0; id < 20; ++id)
        if (registered_seal_proof(id).name == name) return id;
    return -1;
}

std::string_view api_name(api_version v)
{
    switch (v) {
    case api_version::v1_0: return "1.0";
    case api_version::v1_1: return "1.1";
    case api_version::v1_2: return "1.2";
    }
    return "?";
}

bool parse_api_name(std::string_view s, api_version& out)
{
    for (api_version v : {api_version::v1_0, api_version::v1_1, api_version::v1_2})
        if (s == api_name(v)) {
            out = v;
            return true;
        }
    return false;
}

bool parse_tree_name(std::string_view s, tree_shape& out)
{
    unsigned part[3] = {0, 0, 0};
    size_t i = 0;
    for (int k = 0; k < 3; ++k) {
        if (k > 0) {
            if (i >= s.size() || s[i] != '-') return false;
            ++i;
        }
        const size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 4)
            part[k] = part[k] * 10 + unsigned(s[i++] - '0');
        if (i == start || (i < s.size() && s[i] >= '0' && s[i] <= '9')) return false;
    }
    if (i != s.size()) return false;
    out = tree_shape{part[0], part[1], part[2]};
    return true;
}

} // namespace cuzk::filecoin::c1json
