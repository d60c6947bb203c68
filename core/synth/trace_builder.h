#pragma once

#include "../trace/program.h"

#include <string>
#include <vector>

namespace rematlens {

// Writes a trace in simrd's format, a line per instruction, handing out fresh names: what a
// framework's logging allocator would emit.
class TraceBuilder {
public:
    TraceBuilder();

    std::string constant(Bytes size);
    // One operator call; an output with alias >= 0 is a view of that argument (size 0).
    std::vector<std::string> call(const std::string &op, const std::vector<std::string> &args,
                                  const std::vector<Bytes> &sizes, Cost cost, const std::vector<int> &aliases = {});
    std::string call1(const std::string &op, const std::vector<std::string> &args, Bytes size, Cost cost);
    std::string view(const std::string &op, const std::string &source, Cost cost);
    // An in-place operator: the name now holds a new tensor of the same size.
    void mutate(const std::string &op, const std::string &target, const std::vector<std::string> &otherArgs, Cost cost);
    std::string copy(const std::string &source);
    void release(const std::string &name);
    void annotate(const std::string &annotation);

    const std::string &text() const { return m_text; }

private:
    std::string fresh();
    void line(const std::string &json);

    std::string m_text;
    int m_next = 0;
};

} // namespace rematlens
