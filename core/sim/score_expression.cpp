#include "score_expression.h"

#include <muParser.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rematlens {

namespace {

// muparser ends some messages with " at position N." (0-based); the caller points at the
// character itself, so the count would only confuse.
std::string withoutPosition(std::string message)
{
    const std::size_t at = message.rfind(" at position ");
    if (at != std::string::npos)
        message.resize(at);
    while (!message.empty() && message.back() == '.')
        message.pop_back();
    return message;
}

} // namespace

struct ScoreExpression::Compiled {
    mu::Parser parser;
    ScoreVariables variables;
};

const std::vector<ScoreVariableInfo> &scoreVariableInfos()
{
    static const std::vector<ScoreVariableInfo> infos{
        {"compute", "the storage's own compute (cost of the operators that rebuild it)"},
        {"estar", "compute of its evicted neighbourhood e* (forward and backward regions), as DTR adds it"},
        {"eqclass", "compute of the distinct equivalence classes of its evicted neighbours, as DTREqClass adds it"},
        {"neighbours", "number of storages in its evicted neighbourhood e*"},
        {"size", "its size in bytes"},
        {"staleness", "clock - last access (infinity if never accessed)"},
        {"last_access", "the clock at its last access (-infinity if never accessed)"},
        {"clock", "the runtime's clock"},
        {"shortfall", "bytes the allocation being made still lacks"},
    };
    return infos;
}

ScoreExpression::ScoreExpression(std::unique_ptr<Compiled> compiled) : m_compiled(std::move(compiled)) {}
ScoreExpression::~ScoreExpression() = default;
ScoreExpression::ScoreExpression(ScoreExpression &&) noexcept = default;
ScoreExpression &ScoreExpression::operator=(ScoreExpression &&) noexcept = default;

std::optional<ScoreExpression> ScoreExpression::compile(const std::string &text, ExpressionError &error)
{
    auto compiled = std::make_unique<Compiled>();
    mu::Parser &parser = compiled->parser;
    ScoreVariables &v = compiled->variables;
    try {
        double *slots[] = {&v.compute,   &v.estar,      &v.eqclass, &v.neighbours, &v.size,
                           &v.staleness, &v.lastAccess, &v.clock,   &v.shortfall};
        std::size_t i = 0;
        for (const ScoreVariableInfo &info : scoreVariableInfos())
            parser.DefineVar(info.name, slots[i++]);
        parser.SetExpr(text);
        parser.Eval(); // parses and compiles to bytecode; errors surface here
        if (parser.GetNumResults() != 1) {
            error = {"a score is one expression; remove the comma-separated parts", text.find(',')};
            return std::nullopt;
        }
    } catch (const mu::Parser::exception_type &e) {
        error.message = withoutPosition(e.GetMsg());
        error.position = e.GetPos() >= 0 ? static_cast<std::size_t>(e.GetPos()) : text.size();
        error.position = std::min(error.position, text.size());
        return std::nullopt;
    }
    ScoreExpression expression(std::move(compiled));
    expression.m_text = text;
    for (const auto &[name, address] : expression.m_compiled->parser.GetUsedVar()) {
        if (name == "estar" || name == "neighbours")
            expression.m_readsNeighbourhood = true;
        if (name == "eqclass")
            expression.m_readsEqClasses = true;
        if (name == "shortfall")
            expression.m_readsShortfall = true;
    }
    return expression;
}

ScoreVariables &ScoreExpression::variables()
{
    return m_compiled->variables;
}

double ScoreExpression::evaluate() const
{
    const double value = m_compiled->parser.Eval();
    return std::isnan(value) ? std::numeric_limits<double>::infinity() : value;
}

} // namespace rematlens
