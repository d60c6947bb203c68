#include "trace_builder.h"

namespace rematlens {

namespace {

std::string quoted(const std::string &s)
{
    return "\"" + s + "\""; // names and operators are plain identifiers here
}

std::string list(const std::vector<std::string> &items)
{
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += ',';
        out += quoted(items[i]); // appended apart: GCC 12 warns (falsely) on "," + std::string&&
    }
    return out + "]";
}

} // namespace

TraceBuilder::TraceBuilder()
{
    annotate("START");
}

std::string TraceBuilder::fresh()
{
    std::string name = "x";
    name += std::to_string(m_next++); // not "x" + ...: GCC 12 warns (falsely) on char* + std::string&&
    return name;
}

void TraceBuilder::line(const std::string &json)
{
    m_text += json;
    m_text += '\n';
}

void TraceBuilder::annotate(const std::string &annotation)
{
    line(R"({"INSTRUCTION":"ANNOTATE","ANNOTATION":)" + quoted(annotation) + "}");
}

std::string TraceBuilder::constant(Bytes size)
{
    const std::string name = fresh();
    line(R"({"INSTRUCTION":"CONSTANT","NAME":)" + quoted(name) + "}");
    line(R"({"INSTRUCTION":"MEMORY","NAME":)" + quoted(name) + R"(,"MEMORY":")" + std::to_string(size) + "\"}");
    return name;
}

std::vector<std::string> TraceBuilder::call(const std::string &op, const std::vector<std::string> &args,
                                            const std::vector<Bytes> &sizes, Cost cost, const std::vector<int> &aliases)
{
    std::vector<std::string> results;
    for (std::size_t i = 0; i < sizes.size(); ++i)
        results.push_back(fresh());
    line(R"({"INSTRUCTION":"CALL","NAME":)" + quoted(op) + R"(,"ARGS":)" + list(args) + R"(,"RESULT":)" + list(results)
         + R"(,"TIME":")" + std::to_string(cost) + "\"}");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const int alias = i < aliases.size() ? aliases[i] : -1;
        line(R"({"INSTRUCTION":"MEMORY","NAME":)" + quoted(results[i]) + R"(,"MEMORY":")"
             + std::to_string(alias >= 0 ? 0 : sizes[i]) + "\"}");
        line(R"({"INSTRUCTION":"ALIAS","NAME":)" + quoted(results[i]) + R"(,"ALIAS":")" + std::to_string(alias) + "\"}");
    }
    return results;
}

std::string TraceBuilder::call1(const std::string &op, const std::vector<std::string> &args, Bytes size, Cost cost)
{
    return call(op, args, {size}, cost).front();
}

std::string TraceBuilder::view(const std::string &op, const std::string &source, Cost cost)
{
    return call(op, {source}, {0}, cost, {0}).front();
}

void TraceBuilder::mutate(const std::string &op, const std::string &target, const std::vector<std::string> &otherArgs,
                          Cost cost)
{
    std::vector<std::string> args{target};
    args.insert(args.end(), otherArgs.begin(), otherArgs.end());
    line(R"({"INSTRUCTION":"MUTATE","NAME":)" + quoted(op) + R"(,"ARGS":)" + list(args) + R"(,"MUTATE":[0],"TIME":")"
         + std::to_string(cost) + "\"}");
}

std::string TraceBuilder::copy(const std::string &source)
{
    const std::string name = fresh();
    line(R"({"INSTRUCTION":"COPY","DST":)" + quoted(name) + R"(,"SRC":)" + quoted(source) + "}");
    return name;
}

void TraceBuilder::release(const std::string &name)
{
    line(R"({"INSTRUCTION":"RELEASE","NAME":)" + quoted(name) + "}");
}

} // namespace rematlens
