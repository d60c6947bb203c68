#pragma once

#include "../trace/program.h"

#include <cstdint>
#include <initializer_list>

namespace rematlens {

// How a synthetic trace prices its tensors and operators: bytes from shapes and the element
// size, time (in nanoseconds, simrd's TIME unit) from a roofline of arithmetic throughput and
// memory bandwidth: an operator takes as long as the slower of its FLOPs and its bytes moved.
struct CostModel {
    Bytes elementBytes = 4;            // float32
    double flopsPerNanosecond = 1e4;   // 10 TFLOP/s
    double bytesPerNanosecond = 500;   // 500 GB/s

    Bytes bytes(std::initializer_list<std::int64_t> shape) const;
    Cost time(double flops, double bytesMoved) const;
};

} // namespace rematlens
