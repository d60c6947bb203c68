#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// What the runtime knows about a storage when it chooses a victim: the values a score
// expression reads. Bound by address into the compiled expression, so they are set in place.
struct ScoreVariables {
    double compute = 0;     // the storage's own compute
    double estar = 0;       // compute of its evicted neighbourhood e* (both regions)
    double eqclass = 0;     // compute of the distinct equivalence classes of its evicted neighbours
    double neighbours = 0;  // storages in e*
    double size = 0;        // bytes
    double staleness = 0;   // clock - last access; +infinity if never accessed
    double lastAccess = 0;  // -infinity if never accessed
    double clock = 0;
    double shortfall = 0;   // bytes the allocation being made still lacks
};

// One variable of the expression language, for listings and tooltips.
struct ScoreVariableInfo {
    const char *name;
    const char *meaning;
};
const std::vector<ScoreVariableInfo> &scoreVariableInfos();

struct ExpressionError {
    std::string message;
    std::size_t position = 0; // offset of the offending character in the expression
};

// A user's eviction score, parsed and compiled once by muparser; the storage with the lowest
// score is evicted. Not copyable: the parser holds the variables' addresses.
class ScoreExpression {
public:
    ~ScoreExpression();
    ScoreExpression(ScoreExpression &&) noexcept;
    ScoreExpression &operator=(ScoreExpression &&) noexcept;

    static std::optional<ScoreExpression> compile(const std::string &text, ExpressionError &error);

    ScoreVariables &variables();
    // The score of the variables as they are set; NaN (0/0, 0 x infinity) counts as +infinity,
    // as simrd scores a zero denominator.
    double evaluate() const;

    // Whether the expression reads e* (estar, neighbours) or the equivalence classes: only then
    // does the replay keep them.
    bool readsNeighbourhood() const { return m_readsNeighbourhood; }
    bool readsEqClasses() const { return m_readsEqClasses; }
    bool readsShortfall() const { return m_readsShortfall; }
    const std::string &text() const { return m_text; }

private:
    struct Compiled;
    explicit ScoreExpression(std::unique_ptr<Compiled> compiled);

    std::unique_ptr<Compiled> m_compiled;
    std::string m_text;
    bool m_readsNeighbourhood = false;
    bool m_readsEqClasses = false;
    bool m_readsShortfall = false;
};

} // namespace rematlens
