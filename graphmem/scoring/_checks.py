"""Input checks shared by the scoring functions.

Every check raises :class:`ValueError` whose message starts with the argument's
name, so a caller can tell which input was wrong without reading a traceback.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def finite(name: str, value: float) -> float:
    """Return ``value`` as a float, or raise when it is NaN or infinite."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number


def in_range(name: str, value: float, low: float, high: float) -> float:
    """Return ``value`` when it is finite and in ``[low, high]``, else raise."""
    number = finite(name, value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value!r}")
    return number


def unit(name: str, value: float) -> float:
    """Return ``value`` when it is a finite number in ``[0, 1]``, else raise."""
    return in_range(name, value, 0.0, 1.0)


def non_negative(name: str, value: float) -> float:
    """Return ``value`` when it is finite and ``>= 0``, else raise."""
    number = finite(name, value)
    if number < 0.0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return number


def positive(name: str, value: float) -> float:
    """Return ``value`` when it is finite and ``> 0``, else raise."""
    number = finite(name, value)
    if number <= 0.0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return number


def count(name: str, value: int, minimum: int = 0) -> int:
    """Return ``value`` when it is an integer ``>= minimum``, else raise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return value


def elapsed_days(name: str, value: float) -> float:
    """Return a time interval in days, with a negative one (clock skew) as 0."""
    return max(0.0, finite(name, value))


def weights(name: str, values: Sequence[float], size: int) -> tuple[float, ...]:
    """Return ``size`` finite, non-negative weights as a tuple, else raise."""
    if len(values) != size:
        raise ValueError(f"{name} must have {size} entries, got {len(values)}")
    return tuple(non_negative(f"{name}[{i}]", w) for i, w in enumerate(values))
