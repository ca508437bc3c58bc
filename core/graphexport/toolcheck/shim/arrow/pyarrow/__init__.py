"""A stand-in for the few pyarrow calls that DGL's random_partition.py
(through tools/distpartitioning/array_readwriter) and GraphStorm's
gpartition/random_partition.py make, where pyarrow is not installed
(Debian has no package of it): building a table from a frame or arrays
and writing it as headerless CSV. check.py puts shim/arrow on the path only
when the real pyarrow is missing."""

import pandas as _pd

# pandas reads it when it looks for pyarrow; too old for pandas to use.
__version__ = "0.0.0"

from . import csv, parquet  # noqa: F401


class Table:
    def __init__(self, frame):
        self.frame = frame

    @staticmethod
    def from_pandas(frame):
        return Table(frame)

    @staticmethod
    def from_arrays(arrays, names):
        return Table(_pd.DataFrame(dict(zip(names, arrays))))


def array(values):
    return values
