"""Types shared by every layer (embedders, stores, pipelines); imports nothing of graphmem."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]
"""An embedding or a stack of them: float32, shape ``(dim,)`` or ``(n, dim)``, rows L2-normalised."""
