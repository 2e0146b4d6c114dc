"""The single-process jobs (pre-annotate, de-identify, evaluate) partitioned by patient and run
on a dask.distributed cluster, for archives of millions of notes."""
