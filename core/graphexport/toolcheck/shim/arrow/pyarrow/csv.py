"""pyarrow.csv as array_readwriter/csv.py's write path uses it."""


class WriteOptions:
    def __init__(self, include_header=True, delimiter=","):
        self.include_header = include_header
        self.delimiter = delimiter


class ReadOptions:
    def __init__(self, **kwargs):
        raise NotImplementedError("the pyarrow stand-in only writes CSV")


class ParseOptions(ReadOptions):
    pass


def write_csv(table, path, write_options=None):
    opts = write_options or WriteOptions()
    table.frame.to_csv(path, header=opts.include_header, index=False, sep=opts.delimiter)
