"""Imported by array_readwriter/parquet.py at import time; never called by
random partitioning."""
