#pragma once

#include "cost_model.h"
#include "trace_builder.h"

#include <string>
#include <vector>

namespace rematlens {

// Records forward operators with what their gradients need, then writes the backward pass the
// way an autograd engine runs it: in reverse, each gradient call taking the upstream gradient
// and the tensors its forward saved, fan-in gradients summed, every tensor released once
// nothing holds it (the forward is done with it and no pending gradient saved it).
class AutogradTape {
public:
    using Value = int;

    struct OpSpec {
        std::string name;
        std::vector<Value> inputs;
        std::vector<Bytes> outputs;      // bytes per output
        std::vector<int> aliases;        // per output: -1, or the input it is a view of
        double flops = 0;
        std::vector<bool> saveInputs;    // per input: kept for the backward
        std::vector<bool> saveOutputs;   // per output: kept for the backward
    };

    AutogradTape(TraceBuilder &trace, const CostModel &cost);

    Value parameter(Bytes size);     // a weight: a constant that gets a gradient
    Value input(Bytes size);         // data: a constant without gradient
    std::vector<Value> op(const OpSpec &spec);
    Value op1(const std::string &name, const std::vector<Value> &inputs, Bytes output, double flops,
              const std::vector<bool> &saveInputs, bool saveOutput = false);
    // An in-place operator (MUTATE) whose result the backward needs, like relu_.
    void inplace(const std::string &name, Value target, double flops);
    // The forward pass no longer refers to v (its name goes out of scope).
    void done(Value v);
    Bytes bytes(Value v) const { return m_values[static_cast<std::size_t>(v)].bytes; }
    const CostModel &costModel() const { return m_cost; }

    // Writes the backward pass from a scalar loss.
    void backward(Value loss);

private:
    struct ValueInfo {
        std::string name;
        Bytes bytes;
        bool needsGrad;
        bool isParameter;
        bool forwardDone = false;
        int saves = 0;     // gradients still to run that saved it
        bool released = false;
    };
    struct Record {
        OpSpec spec;
        std::vector<Value> outputs;
        std::vector<Value> saved;
    };

    Value add(std::string name, Bytes bytes, bool needsGrad, bool isParameter);
    void releaseIfFree(Value v);
    void accumulate(Value target, const std::string &gradient);
    void runGradient(const Record &record);

    TraceBuilder &m_trace;
    const CostModel &m_cost;
    std::vector<ValueInfo> m_values;
    std::vector<Record> m_records;
    std::vector<std::string> m_gradients; // per value, "" when none yet
};

} // namespace rematlens
