"""rematlens_capture: record a PyTorch training step as a simrd (DTR) trace for RematLens."""

from .capture import Capture
from .side_file import side_file_path
from .step import capture_step

__all__ = ["Capture", "capture_step", "side_file_path"]
