#include "autograd_tape.h"

#include <algorithm>

namespace rematlens {

AutogradTape::AutogradTape(TraceBuilder &trace, const CostModel &cost) : m_trace(trace), m_cost(cost) {}

AutogradTape::Value AutogradTape::add(std::string name, Bytes bytes, bool needsGrad, bool isParameter)
{
    m_values.push_back({std::move(name), bytes, needsGrad, isParameter});
    m_gradients.emplace_back();
    return static_cast<Value>(m_values.size() - 1);
}

AutogradTape::Value AutogradTape::parameter(Bytes size)
{
    return add(m_trace.constant(size), size, true, true);
}

AutogradTape::Value AutogradTape::input(Bytes size)
{
    return add(m_trace.constant(size), size, false, false);
}

std::vector<AutogradTape::Value> AutogradTape::op(const OpSpec &spec)
{
    std::vector<std::string> args;
    Bytes moved = 0;
    bool needsGrad = false;
    for (Value v : spec.inputs) {
        args.push_back(m_values[static_cast<std::size_t>(v)].name);
        moved += bytes(v);
        needsGrad = needsGrad || m_values[static_cast<std::size_t>(v)].needsGrad;
    }
    for (Bytes b : spec.outputs)
        moved += b;
    const std::vector<std::string> names =
        m_trace.call(spec.name, args, spec.outputs, m_cost.time(spec.flops, static_cast<double>(moved)), spec.aliases);
    Record record{spec, {}, {}};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const bool alias = i < spec.aliases.size() && spec.aliases[i] >= 0;
        const Bytes size = alias ? bytes(spec.inputs[static_cast<std::size_t>(spec.aliases[i])]) : spec.outputs[i];
        record.outputs.push_back(add(names[i], size, needsGrad, false));
    }
    for (std::size_t i = 0; i < spec.inputs.size(); ++i)
        if (i < spec.saveInputs.size() && spec.saveInputs[i])
            record.saved.push_back(spec.inputs[i]);
    for (std::size_t i = 0; i < record.outputs.size(); ++i)
        if (i < spec.saveOutputs.size() && spec.saveOutputs[i])
            record.saved.push_back(record.outputs[i]);
    if (needsGrad)
        for (Value v : record.saved)
            ++m_values[static_cast<std::size_t>(v)].saves;
    const std::vector<Value> outputs = record.outputs;
    m_records.push_back(std::move(record));
    return outputs;
}

AutogradTape::Value AutogradTape::op1(const std::string &name, const std::vector<Value> &inputs, Bytes output,
                                      double flops, const std::vector<bool> &saveInputs, bool saveOutput)
{
    return op(OpSpec{name, inputs, {output}, {}, flops, saveInputs, {saveOutput}}).front();
}

void AutogradTape::inplace(const std::string &name, Value target, double flops)
{
    ValueInfo &info = m_values[static_cast<std::size_t>(target)];
    m_trace.mutate(name, info.name, {}, m_cost.time(flops, 2.0 * static_cast<double>(info.bytes)));
    // The name now holds the result: the backward of this op saves it (an identity record).
    Record record{OpSpec{name, {target}, {info.bytes}, {}, flops, {}, {}}, {target}, {target}};
    if (info.needsGrad) {
        ++info.saves;
        m_records.push_back(std::move(record));
    }
}

void AutogradTape::done(Value v)
{
    m_values[static_cast<std::size_t>(v)].forwardDone = true;
    releaseIfFree(v);
}

void AutogradTape::releaseIfFree(Value v)
{
    ValueInfo &info = m_values[static_cast<std::size_t>(v)];
    if (info.released || !info.forwardDone || info.saves > 0 || info.isParameter)
        return;
    m_trace.release(info.name);
    info.released = true;
}

void AutogradTape::accumulate(Value target, const std::string &gradient)
{
    std::string &current = m_gradients[static_cast<std::size_t>(target)];
    if (current.empty()) {
        current = gradient;
        return;
    }
    const Bytes size = bytes(target);
    const std::string sum = m_trace.call1("aten::add", {current, gradient}, size,
                                          m_cost.time(static_cast<double>(size) / 4, 3.0 * static_cast<double>(size)));
    m_trace.release(current);
    m_trace.release(gradient);
    current = sum;
}

void AutogradTape::backward(Value loss)
{
    m_trace.annotate("BACKWARD");
    m_gradients[static_cast<std::size_t>(loss)] =
        m_trace.call1("aten::ones_like", {m_values[static_cast<std::size_t>(loss)].name}, bytes(loss), 1);
    for (auto record = m_records.rbegin(); record != m_records.rend(); ++record) {
        runGradient(*record);
        for (Value s : record->saved) {
            --m_values[static_cast<std::size_t>(s)].saves;
            releaseIfFree(s);
        }
    }
    for (std::string &g : m_gradients)
        if (!g.empty()) {
            m_trace.release(g);
            g.clear();
        }
}

// The gradients of a record's outputs drive its backward call, which takes them and the saved
// tensors and returns a gradient per input that needs one. A record none of whose outputs got
// a gradient is off the loss's path.
void AutogradTape::runGradient(const Record &record)
{
    std::vector<std::string> upstream;
    for (Value out : record.outputs) {
        std::string &g = m_gradients[static_cast<std::size_t>(out)];
        if (!g.empty()) {
            upstream.push_back(g);
            g.clear();
        }
    }
    std::vector<Value> wanted;
    for (Value in : record.spec.inputs)
        if (m_values[static_cast<std::size_t>(in)].needsGrad)
            wanted.push_back(in);
    if (!upstream.empty() && !wanted.empty()) {
        std::vector<std::string> args = upstream;
        Bytes moved = 0;
        for (Value s : record.saved) {
            args.push_back(m_values[static_cast<std::size_t>(s)].name);
            moved += bytes(s);
        }
        std::vector<Bytes> sizes;
        for (Value in : wanted) {
            sizes.push_back(bytes(in));
            moved += bytes(in);
        }
        const std::vector<std::string> grads = m_trace.call(
            record.spec.name + "_backward", args, sizes, m_cost.time(2 * record.spec.flops, static_cast<double>(moved)));
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            if (m_values[static_cast<std::size_t>(wanted[i])].isParameter)
                m_trace.release(grads[i]); // the optimizer takes it at once
            else
                accumulate(wanted[i], grads[i]);
        }
    }
    for (const std::string &g : upstream)
        m_trace.release(g);
}

} // namespace rematlens
