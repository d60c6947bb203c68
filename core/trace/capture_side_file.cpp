#include "capture_side_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

namespace rematlens {

namespace {

using nlohmann::json;

constexpr const char *kFormat = "rematlens-capture-meta/1";

// Thrown while decoding; turned into a ParseError naming the file.
struct SideFileError {
    std::string message;
};

const json &field(const json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end())
        throw SideFileError{std::string("expected the field \"") + key + "\""};
    return *it;
}

std::string text(const json &object, const char *key)
{
    const json &value = field(object, key);
    if (!value.is_string())
        throw SideFileError{std::string("expected \"") + key + "\" to be a string"};
    return value.get<std::string>();
}

std::vector<std::string> names(const json &object, const char *key)
{
    const json &value = field(object, key);
    std::vector<std::string> result;
    if (!value.is_array())
        throw SideFileError{std::string("expected \"") + key + "\" to be a list of names"};
    for (const json &item : value) {
        if (!item.is_string())
            throw SideFileError{std::string("expected \"") + key + "\" to hold only names (strings)"};
        result.push_back(item.get<std::string>());
    }
    return result;
}

CaptureSideFile::TensorShape tensorShape(const std::string &name, const json &entry)
{
    const std::string where = "tensor \"" + name + "\"";
    if (!entry.is_object() || !entry.contains("shape") || !entry["shape"].is_array())
        throw SideFileError{"expected " + where + " to have a \"shape\" list"};
    CaptureSideFile::TensorShape result;
    for (const json &size : entry["shape"]) {
        if (!size.is_number_integer() || size.get<std::int64_t>() < 0)
            throw SideFileError{"expected the shape of " + where + " to hold non-negative integers"};
        result.shape.push_back(size.get<std::int64_t>());
    }
    result.dtype = entry.contains("dtype") && entry["dtype"].is_string() ? entry["dtype"].get<std::string>() : "";
    return result;
}

CaptureSideFile decode(const json &document)
{
    if (!document.is_object())
        throw SideFileError{"expected a JSON object"};
    if (text(document, "format") != kFormat)
        throw SideFileError{std::string("expected \"format\" to be \"") + kFormat + "\""};
    CaptureSideFile side;
    side.torchVersion = text(document, "torch");
    side.timeMode = text(document, "time");
    side.parameters = names(document, "parameters");
    side.buffers = names(document, "buffers");
    side.gradients = names(document, "gradients");
    side.optimizerState = names(document, "optimizer_state");
    side.inputs = names(document, "inputs");
    const json &tensors = field(document, "tensors");
    if (!tensors.is_object())
        throw SideFileError{"expected \"tensors\" to map names to shapes"};
    for (const auto &[name, entry] : tensors.items())
        side.tensors.emplace(name, tensorShape(name, entry));
    if (document.contains("labels") && document["labels"].is_object())
        for (const auto &[name, label] : document["labels"].items())
            if (label.is_string())
                side.labels.emplace(name, label.get<std::string>());
    return side;
}

std::int64_t elementBytes(const std::string &dtype)
{
    static const std::unordered_map<std::string, std::int64_t> sizes = {
        {"float32", 4}, {"float64", 8}, {"float16", 2}, {"bfloat16", 2}, {"int64", 8}, {"int32", 4},
        {"int16", 2},   {"int8", 1},    {"uint8", 1},   {"bool", 1},     {"complex64", 8}, {"complex128", 16}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 4 : it->second;
}

} // namespace

std::string CaptureSideFile::describe(const std::string &name) const
{
    const auto it = tensors.find(name);
    if (it == tensors.end())
        return {};
    std::ostringstream out;
    const auto &shape = it->second.shape;
    if (shape.empty())
        out << "scalar";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out << (i ? "\u00d7" : "") << shape[i];
    if (!it->second.dtype.empty())
        out << ' ' << it->second.dtype;
    if (const auto label = labels.find(name); label != labels.end())
        out << " (" << label->second << ')';
    return out.str();
}

std::int64_t CaptureSideFile::bytesOf(const std::string &name) const
{
    const auto it = tensors.find(name);
    if (it == tensors.end())
        return 0;
    const auto &shape = it->second.shape;
    const std::int64_t elements = std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
    return elements * elementBytes(it->second.dtype);
}

std::string captureSideFilePath(const std::string &tracePath)
{
    constexpr std::string_view suffix = ".log";
    if (tracePath.size() >= suffix.size() && tracePath.compare(tracePath.size() - suffix.size(), suffix.size(), suffix) == 0)
        return tracePath.substr(0, tracePath.size() - suffix.size()) + ".meta.json";
    return tracePath + ".meta.json";
}

CaptureSideFileResult readCaptureSideFile(const std::string &path)
{
    CaptureSideFileResult result;
    std::error_code ignored;
    if (!std::filesystem::is_regular_file(path, ignored))
        return result;
    result.error.file = path;
    std::ifstream stream(path, std::ios::binary);
    if (!stream) {
        result.error.message = "cannot be read";
        return result;
    }
    const json document = json::parse(stream, nullptr, false);
    if (document.is_discarded()) {
        result.error.message = "expected one JSON object (the capture's side file)";
        return result;
    }
    try {
        result.sideFile = decode(document);
        result.error = {};
    } catch (const SideFileError &error) {
        result.error.message = error.message;
    }
    return result;
}

} // namespace rematlens
