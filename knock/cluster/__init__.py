"""Knock beyond one machine: batches of work on local processes or a Dask cluster (``runner``), and logs
and datasets in local folders or anywhere fsspec reaches (``storage``). Dask and fsspec come with the
``cluster`` extra; without it, everything runs on local processes and local paths.
"""
