#include "instruction_decoder.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>

namespace rematlens {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

struct Field {
    object obj;
    std::string &error;

    bool fail(std::string message)
    {
        error = std::move(message);
        return false;
    }

    bool get(const char *key, element &out)
    {
        if (obj[key].get(out) != simdjson::SUCCESS)
            return fail(std::string("expected field \"") + key + "\"");
        return true;
    }

    bool string(const char *key, std::string &out)
    {
        element e;
        if (!get(key, e))
            return false;
        std::string_view view;
        if (e.get_string().get(view) != simdjson::SUCCESS)
            return fail(std::string("expected \"") + key + "\" to be a string");
        out.assign(view);
        return true;
    }

    bool stringList(const char *key, std::vector<std::string> &out)
    {
        element e;
        if (!get(key, e))
            return false;
        simdjson::dom::array array;
        if (e.get_array().get(array) != simdjson::SUCCESS)
            return fail(std::string("expected \"") + key + "\" to be a list of names");
        for (element item : array) {
            std::string_view view;
            if (item.get_string().get(view) != simdjson::SUCCESS)
                return fail(std::string("expected \"") + key + "\" to hold only names (strings)");
            out.emplace_back(view);
        }
        return true;
    }

    // Integers arrive as JSON strings ("6912") or numbers; Python's int() accepts both.
    bool integer(element e, const char *key, std::int64_t &out)
    {
        const std::string what = std::string("expected \"") + key + "\" to be an integer";
        switch (e.type()) {
        case element_type::INT64:
            out = e.get_int64().value_unsafe();
            return true;
        case element_type::UINT64:
            return fail(what + " below 2^63");
        case element_type::DOUBLE: {
            const double d = e.get_double().value_unsafe();
            if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 9.2e18)
                return fail(what);
            out = static_cast<std::int64_t>(d);
            return true;
        }
        case element_type::STRING: {
            std::string_view text = e.get_string().value_unsafe();
            while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
                text.remove_prefix(1);
            while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
                text.remove_suffix(1);
            if (!text.empty() && text.front() == '+')
                text.remove_prefix(1);
            const char *end = text.data() + text.size();
            auto [ptr, ec] = std::from_chars(text.data(), end, out);
            if (ec == std::errc::result_out_of_range)
                return fail(what + " that fits in 64 bits");
            if (ec != std::errc() || ptr != end || text.empty())
                return fail(what + ", got \"" + std::string(e.get_string().value_unsafe()) + "\"");
            return true;
        }
        default:
            return fail(what);
        }
    }

    bool integer(const char *key, std::int64_t &out)
    {
        element e;
        return get(key, e) && integer(e, key, out);
    }

    bool integerList(const char *key, std::vector<std::int64_t> &out)
    {
        element e;
        if (!get(key, e))
            return false;
        simdjson::dom::array array;
        if (e.get_array().get(array) != simdjson::SUCCESS)
            return fail(std::string("expected \"") + key + "\" to be a list of integers");
        for (element item : array) {
            std::int64_t value = 0;
            if (!integer(item, key, value))
                return false;
            out.push_back(value);
        }
        return true;
    }
};

bool decodeFields(Instruction &ins, std::string_view kind, Field &f)
{
    using K = Instruction::Kind;
    if (kind == "ANNOTATE") {
        ins.kind = K::Annotate;
        return f.string("ANNOTATION", ins.name);
    }
    if (kind == "CONSTANT") {
        ins.kind = K::Constant;
        return f.string("NAME", ins.name);
    }
    if (kind == "MEMORY") {
        ins.kind = K::Memory;
        return f.string("NAME", ins.name) && f.integer("MEMORY", ins.number);
    }
    if (kind == "ALIAS") {
        ins.kind = K::Alias;
        return f.string("NAME", ins.name) && f.integer("ALIAS", ins.number);
    }
    if (kind == "CALL") {
        ins.kind = K::Call;
        return f.stringList("RESULT", ins.results) && f.string("NAME", ins.name) && f.stringList("ARGS", ins.args)
               && f.integer("TIME", ins.number);
    }
    if (kind == "MUTATE") {
        ins.kind = K::Mutate;
        return f.stringList("ARGS", ins.args) && f.integerList("MUTATE", ins.mutated) && f.string("NAME", ins.name)
               && f.integer("TIME", ins.number);
    }
    if (kind == "COPY" || kind == "COPY_FROM") {
        ins.kind = kind == "COPY" ? K::Copy : K::CopyFrom;
        return f.string("DST", ins.name) && f.string("SRC", ins.source);
    }
    if (kind == "RELEASE") {
        ins.kind = K::Release;
        return f.string("NAME", ins.name);
    }
    return f.fail("unknown instruction \"" + std::string(kind)
                  + "\" (expected ANNOTATE, CONSTANT, MEMORY, ALIAS, CALL, MUTATE, COPY, COPY_FROM or RELEASE)");
}

} // namespace

struct InstructionDecoder::Impl {
    simdjson::dom::parser parser;
};

InstructionDecoder::InstructionDecoder() : m_impl(std::make_unique<Impl>()) {}
InstructionDecoder::~InstructionDecoder() = default;

std::optional<Instruction> InstructionDecoder::decode(std::string_view line, int lineNumber)
{
    element doc;
    if (m_impl->parser.parse(line.data(), line.size(), false).get(doc) != simdjson::SUCCESS) {
        m_error = "expected one JSON object on the line";
        return std::nullopt;
    }
    object obj;
    if (doc.get_object().get(obj) != simdjson::SUCCESS) {
        m_error = "expected a JSON object with an \"INSTRUCTION\" field";
        return std::nullopt;
    }
    Field f{obj, m_error};
    std::string kind;
    if (!f.string("INSTRUCTION", kind))
        return std::nullopt;
    Instruction ins;
    ins.line = lineNumber;
    if (!decodeFields(ins, kind, f))
        return std::nullopt;
    return ins;
}

const char *instructionKindName(Instruction::Kind kind)
{
    switch (kind) {
    case Instruction::Kind::Annotate: return "ANNOTATE";
    case Instruction::Kind::Constant: return "CONSTANT";
    case Instruction::Kind::Memory: return "MEMORY";
    case Instruction::Kind::Alias: return "ALIAS";
    case Instruction::Kind::Call: return "CALL";
    case Instruction::Kind::Mutate: return "MUTATE";
    case Instruction::Kind::Copy: return "COPY";
    case Instruction::Kind::CopyFrom: return "COPY_FROM";
    case Instruction::Kind::Release: return "RELEASE";
    }
    return "?";
}

} // namespace rematlens
