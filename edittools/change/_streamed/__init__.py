"""Changes of files over the `max_file_bytes` cap, never held in memory.

Streamed passes find what to change (`scan`), the kernel writes the new file beside the old one,
and the diff is cut from windows read around each change (`windows`). This package and `sandbox`
are the only places that read files by offset or map them (a layout rule).
"""

from edittools.change._streamed.edit import streamed_edit
from edittools.change._streamed.multi_edit import streamed_multi_edit
from edittools.change._streamed.patch import streamed_patch
from edittools.change._streamed.undo import streamed_undo

__all__ = ["streamed_edit", "streamed_multi_edit", "streamed_patch", "streamed_undo"]
