#include "python_request.h"

namespace rematlens {

void raiseForStatus(int status, const PythonReporter &reporter)
{
    if (status == ExitOk)
        return;
    if (status == ExitInterrupted) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
    const std::string message = reporter.firstError();
    PyObject *kind = status == ExitBadUsage ? PythonErrors::usage : PythonErrors::input;
    PyErr_SetString(kind, message.empty() ? "the request failed" : message.c_str());
    throw py::error_already_set();
}

} // namespace rematlens
