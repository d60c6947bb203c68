#include "app/formats/gzip_line_reader.h"

#include <zlib.h>

namespace rematlens {

namespace {

constexpr unsigned kChunk = 1 << 17;

// zlib's messages start with the file's path, which ours already names.
std::string withoutPath(const std::string &message, const std::string &path)
{
    const std::string prefix = path + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

} // namespace

GzipLineReader::~GzipLineReader()
{
    if (m_file)
        gzclose_r(static_cast<gzFile>(m_file));
}

bool GzipLineReader::open(const std::string &path, std::string &error)
{
    m_path = path;
    m_file = gzopen(path.c_str(), "rb");
    if (!m_file) {
        error = path + ": cannot open";
        return false;
    }
    gzbuffer(static_cast<gzFile>(m_file), kChunk);
    // zlib would pass a file that is not gzip through as it is: a renamed text file is not a bundled map.
    if (!fill(error))
        return false;
    if (gzdirect(static_cast<gzFile>(m_file))) {
        error = path + ": not gzip-compressed";
        return false;
    }
    return true;
}

// Named by the line being read: the one after the last returned.
std::string GzipLineReader::failure(const std::string &what) const
{
    return m_path + ":" + std::to_string(m_line + 1) + ": " + what;
}

// Unpacks the next chunk; at the end of the data, checks that the stream ended where it should.
bool GzipLineReader::fill(std::string &error)
{
    if (m_end)
        return true;
    auto *file = static_cast<gzFile>(m_file);
    m_buffer.erase(0, m_start);
    m_start = 0;
    const std::size_t kept = m_buffer.size();
    m_buffer.resize(kept + kChunk);
    const int read = gzread(file, m_buffer.data() + kept, kChunk);
    int code = Z_OK;
    const char *message = gzerror(file, &code);
    // zlib reads ahead: it flags a stream cut short (Z_BUF_ERROR) while data before the cut is
    // still to come, so that is an error only once nothing more comes.
    const bool cutShort = code == Z_BUF_ERROR && read == 0;
    if (read < 0 || cutShort || (code != Z_OK && code != Z_BUF_ERROR)) {
        m_buffer.resize(kept);
        error = failure(cutShort ? std::string("the compressed file is cut short")
                                 : "corrupt gzip data (" + withoutPath(message, m_path) + ")");
        return false;
    }
    m_buffer.resize(kept + static_cast<std::size_t>(read));
    m_end = read == 0;
    return true;
}

bool GzipLineReader::next(std::string &line, std::string &error)
{
    error.clear();
    for (;;) {
        const std::size_t newline = m_buffer.find('\n', m_start);
        if (newline != std::string::npos) {
            line.assign(m_buffer, m_start, newline - m_start);
            m_start = newline + 1;
            ++m_line;
            return true;
        }
        if (m_end) {
            if (m_start == m_buffer.size())
                return false;
            line.assign(m_buffer, m_start, std::string::npos); // a last line without a newline
            m_start = m_buffer.size();
            ++m_line;
            return true;
        }
        if (!fill(error))
            return false;
    }
}

} // namespace rematlens
