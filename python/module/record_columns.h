#pragma once

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rematlens {

namespace py = pybind11;

// Records (the lines of a results or map file) gathered field by field into columns for a
// pandas DataFrame, in the order fields first appear. A column of integers (or of numbers)
// that every record has becomes a NumPy array; any other a list, with None where a record
// lacks the field, and one Python string per distinct text (a map's 125,000 "pass" are one).
class RecordColumns {
public:
    // A field's value: none, an integer, a number, a text, a truth, or anything else as JSON.
    using Cell = std::variant<std::monostate, std::int64_t, double, std::string, bool, nlohmann::ordered_json>;

    explicit RecordColumns(std::size_t records) : m_records(records) {}
    void set(std::size_t record, std::string_view field, Cell value);
    py::dict take();

private:
    struct Column {
        std::vector<Cell> cells;
        bool integers = true;
        bool numbers = true;
    };
    static py::object values(const Column &column);

    std::size_t m_records;
    std::vector<std::string> m_order;
    std::map<std::string, Column, std::less<>> m_columns;
};

} // namespace rematlens
