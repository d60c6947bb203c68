"""rematlens_capture: record a PyTorch training step as a simrd (DTR) trace for RematLens."""

__all__ = ["Capture", "capture_step", "side_file_path"]


def __getattr__(name):
    # Imported on first use, so `python3 -m rematlens_capture` can say in one line that torch is missing.
    if name == "Capture":
        from .capture import Capture
        return Capture
    if name == "capture_step":
        from .step import capture_step
        return capture_step
    if name == "side_file_path":
        from .side_file import side_file_path
        return side_file_path
    raise AttributeError("module 'rematlens_capture' has no attribute %r" % name)
