"""A stand-in for DGL where it is not installed: tools/partition_algo's
base.py imports only DGLError from it. check.py puts this folder on the
path only when the real dgl is missing."""


class DGLError(Exception):
    pass
