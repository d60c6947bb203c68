#include "python_values.h"

#include "record_columns.h"

namespace rematlens {

py::object pythonValue(const nlohmann::ordered_json &value)
{
    switch (value.type()) {
    case nlohmann::ordered_json::value_t::object: {
        py::dict dict;
        for (const auto &[key, item] : value.items())
            dict[py::str(key)] = pythonValue(item);
        return dict;
    }
    case nlohmann::ordered_json::value_t::array: {
        py::list list;
        for (const nlohmann::ordered_json &item : value)
            list.append(pythonValue(item));
        return list;
    }
    case nlohmann::ordered_json::value_t::string:
        return py::str(value.get<std::string>());
    case nlohmann::ordered_json::value_t::boolean:
        return py::bool_(value.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
        return py::int_(value.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
        return py::int_(value.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_float:
        return py::float_(value.get<double>());
    default:
        return py::none();
    }
}

namespace {

RecordColumns::Cell cellOf(const nlohmann::ordered_json &value)
{
    switch (value.type()) {
    case nlohmann::ordered_json::value_t::string: return value.get<std::string>();
    case nlohmann::ordered_json::value_t::boolean: return value.get<bool>();
    case nlohmann::ordered_json::value_t::number_integer:
    case nlohmann::ordered_json::value_t::number_unsigned: return value.get<std::int64_t>();
    case nlohmann::ordered_json::value_t::number_float: return value.get<double>();
    case nlohmann::ordered_json::value_t::null: return std::monostate{};
    default: return value;
    }
}

} // namespace

py::dict recordColumns(const std::vector<nlohmann::ordered_json> &records)
{
    RecordColumns columns(records.size());
    for (std::size_t r = 0; r < records.size(); ++r)
        for (const auto &[key, value] : records[r].items()) {
            if (value.is_object())
                for (const auto &[inner, item] : value.items())
                    columns.set(r, key + "." + inner, cellOf(item));
            else
                columns.set(r, key, cellOf(value));
        }
    return columns.take();
}

} // namespace rematlens
