#include "record_columns.h"

#include "python_values.h"

#include <pybind11/numpy.h>

#include <unordered_map>

namespace rematlens {

void RecordColumns::set(std::size_t record, std::string_view field, Cell value)
{
    auto found = m_columns.find(field);
    if (found == m_columns.end()) {
        m_order.emplace_back(field);
        found = m_columns.emplace(std::string(field), Column{}).first;
        found->second.cells.resize(m_records);
    }
    Column &column = found->second;
    column.integers = column.integers && std::holds_alternative<std::int64_t>(value);
    column.numbers = column.numbers && (std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value));
    column.cells[record] = std::move(value);
}

py::object RecordColumns::values(const Column &column)
{
    const auto n = static_cast<py::ssize_t>(column.cells.size());
    if (column.integers) {
        py::array_t<std::int64_t> array(n);
        auto out = array.mutable_unchecked<1>();
        for (py::ssize_t i = 0; i < n; ++i)
            out(i) = std::get<std::int64_t>(column.cells[std::size_t(i)]);
        return array;
    }
    if (column.numbers) {
        py::array_t<double> array(n);
        auto out = array.mutable_unchecked<1>();
        for (py::ssize_t i = 0; i < n; ++i) {
            const Cell &cell = column.cells[std::size_t(i)];
            out(i) = std::holds_alternative<double>(cell) ? std::get<double>(cell) : double(std::get<std::int64_t>(cell));
        }
        return array;
    }
    py::list list(static_cast<std::size_t>(n));
    std::unordered_map<std::string, py::str> texts;
    for (py::ssize_t i = 0; i < n; ++i) {
        const Cell &cell = column.cells[std::size_t(i)];
        py::object value = py::none();
        if (const auto *text = std::get_if<std::string>(&cell)) {
            auto [it, added] = texts.try_emplace(*text);
            if (added)
                it->second = py::str(*text);
            value = it->second;
        } else if (const auto *integer = std::get_if<std::int64_t>(&cell)) {
            value = py::int_(*integer);
        } else if (const auto *number = std::get_if<double>(&cell)) {
            value = py::float_(*number);
        } else if (const auto *truth = std::get_if<bool>(&cell)) {
            value = py::bool_(*truth);
        } else if (const auto *json = std::get_if<nlohmann::ordered_json>(&cell)) {
            value = pythonValue(*json);
        }
        list[std::size_t(i)] = value;
    }
    return list;
}

py::dict RecordColumns::take()
{
    py::dict out;
    for (const std::string &name : m_order) {
        Column &column = m_columns.at(name);
        for (const Cell &cell : column.cells)
            if (std::holds_alternative<std::monostate>(cell))
                column.integers = column.numbers = false; // a gap: a list, with None
        out[py::str(name)] = values(column);
    }
    m_columns.clear();
    m_order.clear();
    return out;
}

} // namespace rematlens
