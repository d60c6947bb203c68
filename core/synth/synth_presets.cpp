#include "synth_presets.h"

#include "autograd_tape.h"

#include <functional>
#include <random>

namespace rematlens {

namespace {

using Value = AutogradTape::Value;

struct Model {
    AutogradTape &tape;
    const CostModel &cost;
    std::mt19937_64 &random;
    int layers;
    int batch;

    // Widths jitter by up to 1/8 with the seed, so that seeds give distinct traces.
    std::int64_t jitter(std::int64_t width)
    {
        std::uniform_int_distribution<std::int64_t> pick(-width / 8, width / 8);
        return std::max<std::int64_t>(1, width + pick(random));
    }

    Value conv(Value x, std::int64_t in, std::int64_t out, std::int64_t side, bool bias = false)
    {
        const Value w = tape.parameter(cost.bytes({out, in, 3, 3}));
        const double flops = 2.0 * batch * out * in * 9 * side * side;
        const Value y = tape.op1(bias ? "aten::conv2d_bias" : "aten::conv2d", {x, w}, cost.bytes({batch, out, side, side}),
                                 flops, {true, true});
        return y;
    }

    // batch_norm returns the output and two saved statistics, as cudnn's does.
    Value batchNorm(Value x, std::int64_t channels, std::int64_t side)
    {
        const Value gamma = tape.parameter(cost.bytes({channels}));
        const std::vector<Value> outs = tape.op(AutogradTape::OpSpec{
            "aten::batch_norm", {x, gamma}, {cost.bytes({batch, channels, side, side}), cost.bytes({channels}), cost.bytes({channels})},
            {}, 8.0 * batch * channels * side * side, {true, true}, {false, true, true}});
        tape.done(outs[1]);
        tape.done(outs[2]);
        return outs[0];
    }

    Value loss(Value x)
    {
        return tape.op1("aten::mse_loss", {x}, cost.bytes({1}), static_cast<double>(tape.bytes(x)) / 2, {true});
    }
};

void chain(Model &m)
{
    // The uniform linear network of the DTR paper's analysis: equal sizes, equal costs.
    const std::int64_t width = 4096;
    Value x = m.tape.input(m.cost.bytes({m.batch, width}));
    for (int i = 0; i < m.layers; ++i) {
        const Value b = m.tape.parameter(m.cost.bytes({width}));
        const Value y = m.tape.op1("aten::tanh_affine", {x, b}, m.cost.bytes({m.batch, width}), 40.0 * m.batch * width,
                                   {true, false}, true);
        m.tape.done(x);
        x = y;
    }
    const Value l = m.loss(x);
    m.tape.done(x);
    m.tape.backward(l);
}

void resnet(Model &m)
{
    std::int64_t channels = 16;
    std::int64_t side = 32;
    Value x = m.tape.input(m.cost.bytes({m.batch, 3, side, side}));
    Value h = m.conv(x, 3, channels, side);
    m.tape.done(x);
    for (int block = 0; block < m.layers; ++block) {
        const bool down = block > 0 && block % std::max(1, m.layers / 3) == 0;
        if (down) { // stride-2 projection: half the side, twice the channels
            const Value w = m.tape.parameter(m.cost.bytes({channels * 2, channels, 1, 1}));
            const Value p = m.tape.op1("aten::conv2d_stride2", {h, w}, m.cost.bytes({m.batch, channels * 2, side / 2, side / 2}),
                                       2.0 * m.batch * channels * channels * side * side / 2, {true, true});
            m.tape.done(h);
            h = p;
            channels *= 2;
            side /= 2;
        }
        Value y = m.conv(h, channels, channels, side);
        Value n = m.batchNorm(y, channels, side);
        m.tape.done(y);
        m.tape.inplace("aten::relu_", n, static_cast<double>(m.batch * channels * side * side));
        Value z = m.conv(n, channels, channels, side);
        m.tape.done(n);
        Value n2 = m.batchNorm(z, channels, side);
        m.tape.done(z);
        const Value sum = m.tape.op1("aten::add", {n2, h}, m.cost.bytes({m.batch, channels, side, side}),
                                     static_cast<double>(m.batch * channels * side * side), {false, false});
        m.tape.done(n2);
        m.tape.done(h);
        m.tape.inplace("aten::relu_", sum, static_cast<double>(m.batch * channels * side * side));
        h = sum;
    }
    const Value pooled = m.tape.op1("aten::adaptive_avg_pool2d", {h}, m.cost.bytes({m.batch, channels}),
                                    static_cast<double>(m.batch * channels * side * side), {false});
    m.tape.done(h);
    const Value flat = m.tape.op(AutogradTape::OpSpec{"aten::view", {pooled}, {0}, {0}, 0, {false}, {false}}).front();
    const Value l = m.loss(flat);
    m.tape.done(flat);
    m.tape.done(pooled);
    m.tape.backward(l);
}

void unet(Model &m)
{
    const int depth = std::max(1, m.layers);
    std::int64_t channels = m.jitter(16);
    std::int64_t side = std::int64_t{8} << depth;
    Value x = m.tape.input(m.cost.bytes({m.batch, 3, side, side}));
    Value h = m.conv(x, 3, channels, side);
    m.tape.done(x);
    std::vector<std::pair<Value, std::int64_t>> skips;
    for (int level = 0; level < depth; ++level) {
        m.tape.inplace("aten::relu_", h, static_cast<double>(m.batch * channels * side * side));
        skips.emplace_back(h, channels);
        const Value pooled = m.tape.op1("aten::max_pool2d", {h}, m.cost.bytes({m.batch, channels, side / 2, side / 2}),
                                        static_cast<double>(m.batch * channels * side * side), {true}, true);
        side /= 2;
        h = m.conv(pooled, channels, channels * 2, side);
        m.tape.done(pooled);
        channels *= 2;
    }
    for (int level = depth - 1; level >= 0; --level) {
        const auto [skip, skipChannels] = skips[static_cast<std::size_t>(level)];
        const Value up = m.tape.op1("aten::upsample_nearest2d", {h}, m.cost.bytes({m.batch, channels, side * 2, side * 2}),
                                    static_cast<double>(m.batch * channels * side * side * 4), {false});
        m.tape.done(h);
        side *= 2;
        const Value joined = m.tape.op1("aten::cat", {up, skip}, m.cost.bytes({m.batch, channels + skipChannels, side, side}),
                                        static_cast<double>(m.batch * (channels + skipChannels) * side * side), {false, false});
        m.tape.done(up);
        m.tape.done(skip);
        h = m.conv(joined, channels + skipChannels, skipChannels, side);
        m.tape.done(joined);
        channels = skipChannels;
        m.tape.inplace("aten::relu_", h, static_cast<double>(m.batch * channels * side * side));
    }
    const Value l = m.loss(h);
    m.tape.done(h);
    m.tape.backward(l);
}

void transformer(Model &m)
{
    const std::int64_t seq = 128;
    const std::int64_t width = m.jitter(256);
    const std::int64_t heads = 4;
    Value x = m.tape.input(m.cost.bytes({m.batch, seq, width}));
    const std::int64_t tokens = m.batch * seq;
    auto linear = [&](Value in, std::int64_t inWidth, std::int64_t outWidth) {
        const Value w = m.tape.parameter(m.cost.bytes({outWidth, inWidth}));
        return m.tape.op1("aten::linear", {in, w}, m.cost.bytes({tokens, outWidth}), 2.0 * tokens * inWidth * outWidth,
                          {true, true});
    };
    auto layerNorm = [&](Value in) {
        const Value g = m.tape.parameter(m.cost.bytes({width}));
        const std::vector<Value> outs = m.tape.op(AutogradTape::OpSpec{
            "aten::native_layer_norm", {in, g}, {m.tape.bytes(in), m.cost.bytes({tokens}), m.cost.bytes({tokens})}, {},
            8.0 * tokens * width, {true, true}, {false, true, true}});
        m.tape.done(outs[1]);
        m.tape.done(outs[2]);
        return outs[0];
    };
    for (int layer = 0; layer < m.layers; ++layer) {
        const Value qkv = linear(x, width, 3 * width);
        // split into three views of the fused projection
        const std::vector<Value> parts = m.tape.op(AutogradTape::OpSpec{"aten::split", {qkv}, {0, 0, 0}, {0, 0, 0}, 0, {false}, {}});
        const Value scores = m.tape.op1("aten::bmm", {parts[0], parts[1]}, m.cost.bytes({m.batch, heads, seq, seq}),
                                        2.0 * tokens * seq * width, {true, true});
        const Value probs = m.tape.op1("aten::softmax", {scores}, m.tape.bytes(scores),
                                       5.0 * static_cast<double>(m.tape.bytes(scores)) / 4, {false}, true);
        m.tape.done(scores);
        const Value context = m.tape.op1("aten::bmm", {probs, parts[2]}, m.cost.bytes({tokens, width}),
                                         2.0 * tokens * seq * width, {true, true});
        for (Value p : parts)
            m.tape.done(p);
        m.tape.done(qkv);
        m.tape.done(probs);
        const Value projected = linear(context, width, width);
        m.tape.done(context);
        const Value residual = m.tape.op1("aten::add", {projected, x}, m.tape.bytes(x), static_cast<double>(tokens * width),
                                          {false, false});
        m.tape.done(projected);
        m.tape.done(x);
        const Value normed = layerNorm(residual);
        m.tape.done(residual);
        const Value hidden = linear(normed, width, 4 * width);
        const Value activated = m.tape.op1("aten::gelu", {hidden}, m.tape.bytes(hidden), 8.0 * tokens * 4 * width, {true});
        m.tape.done(hidden);
        const Value out = linear(activated, 4 * width, width);
        m.tape.done(activated);
        const Value residual2 = m.tape.op1("aten::add", {out, normed}, m.tape.bytes(out), static_cast<double>(tokens * width),
                                           {false, false});
        m.tape.done(out);
        m.tape.done(normed);
        x = layerNorm(residual2);
        m.tape.done(residual2);
    }
    const Value l = m.loss(x);
    m.tape.done(x);
    m.tape.backward(l);
}

void lstm(Model &m)
{
    const std::int64_t hidden = m.jitter(512);
    const std::int64_t input = 256;
    const Value weights = m.tape.parameter(m.cost.bytes({4 * hidden, input + hidden}));
    Value h = m.tape.input(m.cost.bytes({m.batch, hidden}));
    Value c = m.tape.input(m.cost.bytes({m.batch, hidden}));
    for (int step = 0; step < m.layers; ++step) {
        const Value x = m.tape.input(m.cost.bytes({m.batch, input}));
        const Value gates = m.tape.op1("aten::lstm_gates", {x, h, weights}, m.cost.bytes({m.batch, 4 * hidden}),
                                       2.0 * m.batch * 4 * hidden * (input + hidden), {true, true, true});
        const std::vector<Value> chunks =
            m.tape.op(AutogradTape::OpSpec{"aten::chunk", {gates}, {0, 0, 0, 0}, {0, 0, 0, 0}, 0, {false}, {}});
        // the cell: new (h, c) from the four gates and the old c, two outputs of one kernel
        const std::vector<Value> next = m.tape.op(AutogradTape::OpSpec{
            "aten::lstm_cell_pointwise", {chunks[0], chunks[1], chunks[2], chunks[3], c},
            {m.cost.bytes({m.batch, hidden}), m.cost.bytes({m.batch, hidden})}, {}, 10.0 * m.batch * hidden,
            {true, true, true, true, true}, {false, true}});
        for (Value chunk : chunks)
            m.tape.done(chunk);
        m.tape.done(gates);
        m.tape.done(x);
        m.tape.done(h);
        m.tape.done(c);
        h = next[0];
        c = next[1];
    }
    const Value l = m.loss(h);
    m.tape.done(h);
    m.tape.done(c);
    m.tape.backward(l);
}

struct PresetBuilder {
    SynthPreset preset;
    std::function<void(Model &)> build;
};

const std::vector<PresetBuilder> &builders()
{
    static const std::vector<PresetBuilder> all{
        {{"chain", "uniform linear network of the DTR paper's analysis: equal sizes and costs", 64, 32}, chain},
        {{"resnet", "residual CNN: conv, three-output batch norm, in-place relu, skip adds", 9, 32}, resnet},
        {{"unet", "U-Net: downsampling encoder, upsampling decoder, concatenated skips", 4, 8}, unet},
        {{"transformer", "encoder: fused QKV split into views, attention, GELU MLP, layer norm", 4, 8}, transformer},
        {{"lstm", "LSTM unrolled over time: shared weights, gate chunks as views, two-output cell", 32, 32}, lstm},
    };
    return all;
}

} // namespace

const std::vector<SynthPreset> &synthPresets()
{
    static const std::vector<SynthPreset> presets = [] {
        std::vector<SynthPreset> list;
        for (const PresetBuilder &b : builders())
            list.push_back(b.preset);
        return list;
    }();
    return presets;
}

std::optional<std::string> synthesizeTrace(const SynthOptions &options, std::string &error)
{
    for (const PresetBuilder &b : builders()) {
        if (b.preset.name != options.preset)
            continue;
        const int layers = options.layers.value_or(b.preset.defaultLayers);
        const int batch = options.batch.value_or(b.preset.defaultBatch);
        const int maxLayers = options.preset == "unet" ? 8 : 100000;
        if (layers < 1 || layers > maxLayers || batch < 1 || batch > 4096) {
            error = "--layers must be 1.." + std::to_string(maxLayers) + " and --batch 1..4096";
            return std::nullopt;
        }
        TraceBuilder trace;
        const CostModel cost;
        AutogradTape tape(trace, cost);
        std::mt19937_64 random(options.seed);
        Model model{tape, cost, random, layers, batch};
        b.build(model);
        return trace.text();
    }
    error = "unknown preset \"" + options.preset + "\" (rematlens synth --list shows them)";
    return std::nullopt;
}

} // namespace rematlens
