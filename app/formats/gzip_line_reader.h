#pragma once

#include <string>

namespace rematlens {

// Reads the lines of a gzip-compressed text file, one at a time, without unpacking it whole.
// Damage anywhere (a bad header, corrupt data, a wrong checksum, a file cut short) is an error
// naming the file and the line being read, never a quietly shorter file.
class GzipLineReader {
public:
    GzipLineReader() = default;
    GzipLineReader(const GzipLineReader &) = delete;
    GzipLineReader &operator=(const GzipLineReader &) = delete;
    ~GzipLineReader();

    bool open(const std::string &path, std::string &error);
    // The next line, without its newline; false at the end of the file or on an error
    // (then error is set, naming the file and line).
    bool next(std::string &line, std::string &error);
    int lineNumber() const { return m_line; }

private:
    bool fill(std::string &error);
    std::string failure(const std::string &what) const;

    std::string m_path;
    void *m_file = nullptr; // a gzFile; void keeps zlib.h out of the header
    std::string m_buffer;   // unpacked bytes not yet returned
    std::size_t m_start = 0;
    bool m_end = false;
    int m_line = 0;
};

} // namespace rematlens
